{{/* Settings of the delivery service besides the platform's (see trilha-common's _settings.tpl; libs/delivery/feature/src/shared/delivery.options.ts). */}}
{{- define "delivery-service.env" -}}
{{- include "trilha.internalServiceEnv" . }}
{{- with .Values.webhooks.retrySchedule }}
- name: WEBHOOK_RETRY_SCHEDULE
  value: {{ . | quote }}
{{- end }}
{{- with .Values.webhooks.disableAfter }}
- name: WEBHOOK_DISABLE_AFTER
  value: {{ . | quote }}
{{- end }}
{{- with .Values.webhooks.secretOverlap }}
- name: WEBHOOK_SECRET_OVERLAP
  value: {{ . | quote }}
{{- end }}
{{- with .Values.webhooks.allowedCidrs }}
- name: WEBHOOK_ALLOWED_CIDRS
  value: {{ join "," . | quote }}
{{- end }}
{{- with include "trilha.filePath" (include "delivery-service.webhookCa" . | fromYaml) }}
- name: WEBHOOK_CA_FILE
  value: {{ . | quote }}
{{- end }}
{{- end }}

{{- define "delivery-service.secretSettings" -}}
- env: WEBHOOK_SECRET_KEYS
  key: webhook-secret-keys
  value: {{ .Values.webhooks.secretKeys | quote }}
  existingSecret: {{ .Values.global.existingSecret | quote }}
  existingSecretKey: webhook-secret-keys
  hint: delivery-service.webhooks.secretKeys (or global.existingSecret)
{{- end }}

{{/* The extra CAs trusted for webhook TLS (webhooks.ca), mounted as a file: WEBHOOK_CA_FILE. */}}
{{- define "delivery-service.webhookCa" -}}
{{- toYaml (dict "name" "webhook-ca" "source" .Values.webhooks.ca "what" "webhooks.ca") }}
{{- end }}

{{- define "delivery-service.volumes" -}}
{{- include "trilha.fileVolume" (include "delivery-service.webhookCa" . | fromYaml) }}
{{- end }}

{{- define "delivery-service.volumeMounts" -}}
{{- include "trilha.fileVolumeMount" (include "delivery-service.webhookCa" . | fromYaml) }}
{{- end }}
