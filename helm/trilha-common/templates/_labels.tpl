{{/*
Labels (Kubernetes recommended labels). Pods of a service are selected by name, instance and
component: "server" for the Deployment's pods, "migrations" for the migrations Job's, so that a
Service, a PodDisruptionBudget or a NetworkPolicy of the server never selects a Job's pod.
Call with (dict "context" . "component" "server").
*/}}

{{- define "trilha.selectorLabels" -}}
app.kubernetes.io/name: {{ include "trilha.name" .context }}
app.kubernetes.io/instance: {{ .context.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "trilha.labels" -}}
helm.sh/chart: {{ include "trilha.chart" .context }}
{{ include "trilha.selectorLabels" . }}
{{- with .context.Chart.AppVersion }}
app.kubernetes.io/version: {{ . | quote }}
{{- end }}
app.kubernetes.io/part-of: trilha
app.kubernetes.io/managed-by: {{ .context.Release.Service }}
{{- with .context.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}
