{{/* Settings of the delivery service besides the platform's (see trilha-common's _settings.tpl). */}}
{{- define "delivery-service.env" -}}
{{- include "trilha.internalServiceEnv" . }}
{{- end }}

{{- define "delivery-service.secretSettings" -}}
[]
{{- end }}
