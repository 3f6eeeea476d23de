{{/*
The Service of a service: its serving port (the gateway's public port, a service's internal
port) and the ops port (/healthz, /readyz, /metrics) for Prometheus.
Call with (dict "context" . "port" <name of the serving container port>).
*/}}
{{- define "trilha.service" -}}
{{- $ctx := .context }}
{{- $v := $ctx.Values }}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "trilha.fullname" $ctx }}
  namespace: {{ $ctx.Release.Namespace }}
  labels:
    {{- include "trilha.labels" (dict "context" $ctx "component" "server") | nindent 4 }}
  {{- with $v.service.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  type: {{ $v.service.type }}
  selector:
    {{- include "trilha.selectorLabels" (dict "context" $ctx "component" "server") | nindent 4 }}
  ports:
    - name: {{ .port }}
      port: {{ $v.service.port }}
      targetPort: {{ .port }}
      protocol: TCP
    - name: ops
      port: {{ $v.ports.ops }}
      targetPort: ops
      protocol: TCP
{{- end }}

{{/*
NetworkPolicy of a service's pods. Ingress: the serving port from `from` (a list of peers; empty
means from anywhere) and the ops port from `metricsFrom` (default networkPolicy.metricsFrom, the
Prometheus pods; empty: anywhere). With
networkPolicy.restrictEgress, egress is limited to DNS, `egressTo` (peers and ports the chart
knows, e.g. the gateway to the services) and networkPolicy.extraEgress (PostgreSQL, Kafka, Redis).
Call with (dict "context" . "port" <serving port name> "from" <peers> "egressTo" <egress rules>
["metricsFrom" <peers>]).
*/}}
{{- define "trilha.networkPolicy" -}}
{{- $ctx := .context }}
{{- $np := $ctx.Values.networkPolicy }}
{{- if $np.enabled }}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ include "trilha.fullname" $ctx }}
  namespace: {{ $ctx.Release.Namespace }}
  labels:
    {{- include "trilha.labels" (dict "context" $ctx "component" "server") | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "trilha.selectorLabels" (dict "context" $ctx "component" "server") | nindent 6 }}
  policyTypes:
    - Ingress
    {{- if $np.restrictEgress }}
    - Egress
    {{- end }}
  ingress:
    - ports:
        - port: {{ .port }}
          protocol: TCP
      {{- with .from }}
      from:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    - ports:
        - port: ops
          protocol: TCP
      {{- with (hasKey . "metricsFrom" | ternary .metricsFrom $np.metricsFrom) }}
      from:
        {{- toYaml . | nindent 8 }}
      {{- end }}
  {{- if $np.restrictEgress }}
  egress:
    - ports:
        - port: 53
          protocol: UDP
        - port: 53
          protocol: TCP
    {{- with .egressTo }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
    {{- with $np.extraEgress }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- end }}
{{- end }}
{{- end }}

{{/* Peers that are the gateway's pods of the same release (who may call a service's internal port). */}}
{{- define "trilha.gatewayPeer" -}}
- podSelector:
    matchLabels:
      app.kubernetes.io/name: api-gateway
      app.kubernetes.io/instance: {{ .Release.Name }}
      app.kubernetes.io/component: server
{{- end }}
