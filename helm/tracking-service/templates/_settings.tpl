{{/* Settings of the tracking service besides the platform's (see trilha-common's _settings.tpl). */}}
{{- define "tracking-service.env" -}}
{{- include "trilha.internalServiceEnv" . }}
- name: PUBLIC_BASE_URL
  value: {{ required "tracking-service.publicBaseUrl is required: the https base URL of the public tracking page links (linkRastreio), e.g. https://rastreio.example.com" .Values.publicBaseUrl | quote }}
{{- end }}

{{- define "tracking-service.secretSettings" -}}
[]
{{- end }}
