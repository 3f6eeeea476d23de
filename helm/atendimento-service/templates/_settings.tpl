{{/* Settings of the atendimento service besides the platform's (see trilha-common's _settings.tpl). */}}
{{- define "atendimento-service.env" -}}
{{- include "trilha.internalServiceEnv" . }}
{{- end }}

{{- define "atendimento-service.secretSettings" -}}
[]
{{- end }}
