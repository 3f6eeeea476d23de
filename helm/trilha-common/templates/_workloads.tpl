{{/*
The Deployment of a service. Call with (dict "context" . "volumes" <list> "volumeMounts" <list>)
from the service chart's templates/deployment.yaml. Replicas are left to the HPA or the KEDA
ScaledObject when one is enabled.
*/}}
{{- define "trilha.deployment" -}}
{{- $ctx := .context }}
{{- $v := $ctx.Values }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "trilha.fullname" $ctx }}
  namespace: {{ $ctx.Release.Namespace }}
  labels:
    {{- include "trilha.labels" (dict "context" $ctx "component" "server") | nindent 4 }}
spec:
  {{- if not (include "trilha.autoscaled" $ctx) }}
  replicas: {{ $v.replicaCount }}
  {{- end }}
  revisionHistoryLimit: {{ $v.revisionHistoryLimit }}
  {{- with $v.updateStrategy }}
  strategy:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "trilha.selectorLabels" (dict "context" $ctx "component" "server") | nindent 6 }}
  template:
    {{- include "trilha.podTemplate" (dict "context" $ctx "component" "server" "secretName" (include "trilha.fullname" $ctx) "volumes" .volumes "volumeMounts" .volumeMounts "checksum" (include "trilha.secretData" $ctx | sha256sum)) | nindent 4 }}
{{- end }}

{{/* "true" when an HPA or a KEDA ScaledObject sets the replicas. */}}
{{- define "trilha.autoscaled" -}}
{{- if or $.Values.autoscaling.enabled ($.Values.keda | default dict).enabled }}true{{ end }}
{{- end }}

{{/* The fewest replicas the service runs with. */}}
{{- define "trilha.minReplicas" -}}
{{- if $.Values.autoscaling.enabled }}{{ $.Values.autoscaling.minReplicas }}
{{- else if ($.Values.keda | default dict).enabled }}{{ $.Values.keda.minReplicaCount }}
{{- else }}{{ $.Values.replicaCount }}{{ end }}
{{- end }}

{{/*
The migrations Job: `main.js migrate` for the service's schema, as a pre-install and pre-upgrade
hook, so that new code never serves an old schema. It runs before the chart's Secret exists
(on install), so it reads its settings from a hook Secret of its own (trilha.hookSecret),
created just before it and deleted after it.
*/}}
{{- define "trilha.migrationsJob" -}}
{{- $ctx := .context }}
{{- $v := $ctx.Values }}
{{- if $v.migrations.enabled }}
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ include "trilha.suffixedName" (dict "context" $ctx "suffix" "migrations") }}
  namespace: {{ $ctx.Release.Namespace }}
  labels:
    {{- include "trilha.labels" (dict "context" $ctx "component" "migrations") | nindent 4 }}
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: "0"
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
spec:
  backoffLimit: {{ $v.migrations.backoffLimit }}
  activeDeadlineSeconds: {{ $v.migrations.activeDeadlineSeconds }}
  template:
    {{- include "trilha.podTemplate" (dict "context" $ctx "component" "migrations" "args" (list "migrate") "secretName" (include "trilha.suffixedName" (dict "context" $ctx "suffix" "migrations")) "volumes" .volumes "volumeMounts" .volumeMounts "checksum" (include "trilha.secretData" $ctx | sha256sum)) | nindent 4 }}
{{- end }}
{{- end }}

{{/* The chart's Secret: the secret settings given as values (none when all come from existing Secrets). */}}
{{- define "trilha.secret" -}}
{{- $data := include "trilha.secretData" . }}
{{- if $data }}
apiVersion: v1
kind: Secret
metadata:
  name: {{ include "trilha.fullname" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "trilha.labels" (dict "context" . "component" "server") | nindent 4 }}
type: Opaque
data:
  {{- $data | nindent 2 }}
{{- end }}
{{- end }}

{{/* The same data for the migrations Job, as a hook created before it (weight -10) and deleted once the hooks ran. */}}
{{- define "trilha.hookSecret" -}}
{{- $data := include "trilha.secretData" . }}
{{- if and .Values.migrations.enabled $data }}
apiVersion: v1
kind: Secret
metadata:
  name: {{ include "trilha.suffixedName" (dict "context" . "suffix" "migrations") }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "trilha.labels" (dict "context" . "component" "migrations") | nindent 4 }}
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: "-10"
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
type: Opaque
data:
  {{- $data | nindent 2 }}
{{- end }}
{{- end }}

{{- define "trilha.serviceAccount" -}}
{{- if .Values.serviceAccount.create }}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "trilha.serviceAccountName" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "trilha.labels" (dict "context" . "component" "server") | nindent 4 }}
  {{- with .Values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
automountServiceAccountToken: false
{{- end }}
{{- end }}
