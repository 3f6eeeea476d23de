{{/* Settings of the tracking service besides the platform's (see trilha-common's _settings.tpl). */}}
{{- define "tracking-service.env" -}}
{{- include "trilha.internalServiceEnv" . }}
{{- end }}

{{- define "tracking-service.secretSettings" -}}
[]
{{- end }}
