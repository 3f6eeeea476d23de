{{/*
Names. Every service chart is named after its service (api-gateway, tracking-service, …); its
objects are called "<release>-<chart>" (or fullnameOverride), so that in one release of the
umbrella chart the gateway can find the other services by name.
*/}}

{{/* The chart's name: nameOverride or the chart name. */}}
{{- define "trilha.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* "<release>-<name>", or fullnameOverride. */}}
{{- define "trilha.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "trilha.name" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/* The name another service chart of the same release gets by default: (dict "context" . "service" "tracking-service"). */}}
{{- define "trilha.siblingFullname" -}}
{{- printf "%s-%s" .context.Release.Name .service | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* A name derived from the fullname, e.g. (dict "context" . "suffix" "migrations"). */}}
{{- define "trilha.suffixedName" -}}
{{- $base := include "trilha.fullname" .context | trunc (int (sub 62 (len .suffix))) | trimSuffix "-" }}
{{- printf "%s-%s" $base .suffix }}
{{- end }}

{{- define "trilha.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "trilha.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "trilha.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}
