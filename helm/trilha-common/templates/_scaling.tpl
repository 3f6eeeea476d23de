{{/* HorizontalPodAutoscaler of the service's Deployment (autoscaling.enabled). */}}
{{- define "trilha.hpa" -}}
{{- $a := .Values.autoscaling }}
{{- if $a.enabled }}
{{- if (.Values.keda | default dict).enabled }}
{{- fail "autoscaling.enabled and keda.enabled exclude each other: KEDA manages its own HPA" }}
{{- end }}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "trilha.fullname" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "trilha.labels" (dict "context" . "component" "server") | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "trilha.fullname" . }}
  minReplicas: {{ $a.minReplicas }}
  maxReplicas: {{ $a.maxReplicas }}
  metrics:
    {{- with $a.targetCPUUtilizationPercentage }}
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ . }}
    {{- end }}
    {{- with $a.targetMemoryUtilizationPercentage }}
    - type: Resource
      resource:
        name: memory
        target:
          type: Utilization
          averageUtilization: {{ . }}
    {{- end }}
  {{- with $a.behavior }}
  behavior:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}
{{- end }}

{{/* PodDisruptionBudget, when the service runs more than one replica: a drain never takes them all. */}}
{{- define "trilha.pdb" -}}
{{- $pdb := .Values.podDisruptionBudget }}
{{- if and $pdb.enabled (gt (int (include "trilha.minReplicas" .)) 1) }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "trilha.fullname" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "trilha.labels" (dict "context" . "component" "server") | nindent 4 }}
spec:
  {{- if $pdb.minAvailable }}
  minAvailable: {{ $pdb.minAvailable }}
  {{- else }}
  maxUnavailable: {{ $pdb.maxUnavailable }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "trilha.selectorLabels" (dict "context" . "component" "server") | nindent 6 }}
{{- end }}
{{- end }}

{{/* ServiceMonitor (Prometheus Operator) scraping /metrics on the ops port. */}}
{{- define "trilha.serviceMonitor" -}}
{{- $sm := .Values.metrics.serviceMonitor }}
{{- if $sm.enabled }}
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ include "trilha.fullname" . }}
  namespace: {{ default .Release.Namespace $sm.namespace }}
  labels:
    {{- include "trilha.labels" (dict "context" . "component" "server") | nindent 4 }}
    {{- with $sm.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  namespaceSelector:
    matchNames:
      - {{ .Release.Namespace }}
  selector:
    matchLabels:
      {{- include "trilha.selectorLabels" (dict "context" . "component" "server") | nindent 6 }}
  endpoints:
    - port: ops
      path: /metrics
      interval: {{ $sm.interval }}
      scrapeTimeout: {{ $sm.scrapeTimeout }}
{{- end }}
{{- end }}
