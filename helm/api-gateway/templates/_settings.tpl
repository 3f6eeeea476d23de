{{/* Settings of the gateway besides the platform's (apps/api-gateway/src/config.ts). */}}
{{- define "api-gateway.env" -}}
- name: PUBLIC_PORT
  value: {{ .Values.ports.public | quote }}
- name: TLS_TERMINATED_BY_PROXY
  value: {{ .Values.tls.terminatedByProxy | quote }}
- name: TRUSTED_PROXIES
  value: {{ .Values.tls.trustedProxies | quote }}
{{- if not .Values.tls.terminatedByProxy }}
- name: TLS_CERT_FILE
  value: /etc/trilha/tls/tls.crt
- name: TLS_KEY_FILE
  value: /etc/trilha/tls/tls.key
{{- end }}
- name: PUBLIC_BASE_URL
  value: {{ required "api-gateway.publicBaseUrl is required: the https origin where the public reaches the gateway (the base of the store portal links), e.g. https://api.example.com" .Values.publicBaseUrl | quote }}
- name: TOKEN_TTL_SECONDS
  value: {{ .Values.tokenTtlSeconds | quote }}
- name: RATE_LIMIT_DEFAULT_PER_MINUTE
  value: {{ .Values.rateLimitDefaultPerMinute | quote }}
- name: CONCURRENT_REQUESTS_PER_STORE
  value: {{ .Values.concurrentRequestsPerStore | quote }}
- name: TRACKING_SERVICE_URL
  value: {{ include "api-gateway.upstream" (dict "context" . "url" .Values.upstreams.tracking "service" "tracking-service") | quote }}
- name: ATENDIMENTO_SERVICE_URL
  value: {{ include "api-gateway.upstream" (dict "context" . "url" .Values.upstreams.atendimento "service" "atendimento-service") | quote }}
- name: DELIVERY_SERVICE_URL
  value: {{ include "api-gateway.upstream" (dict "context" . "url" .Values.upstreams.delivery "service" "delivery-service") | quote }}
# Each replica reads every store event in a consumer group of its own, named after the pod.
- name: INSTANCE_ID
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
{{- end }}

{{- define "api-gateway.secretSettings" -}}
{{- $existing := .Values.global.existingSecret }}
- env: REDIS_URL
  key: redis-url
  value: {{ .Values.redis.url | quote }}
  existingSecret: {{ .Values.redis.existingSecret | quote }}
  existingSecretKey: {{ .Values.redis.existingSecretKey | quote }}
  hint: api-gateway.redis.url (or api-gateway.redis.existingSecret)
- env: TOKEN_SIGNING_SECRET
  key: token-signing-secret
  value: {{ .Values.tokenSigningSecret | quote }}
  existingSecret: {{ $existing | quote }}
  existingSecretKey: token-signing-secret
  hint: api-gateway.tokenSigningSecret (or global.existingSecret)
- env: ADMIN_API_KEY
  key: admin-api-key
  value: {{ .Values.adminApiKey | quote }}
  existingSecret: {{ $existing | quote }}
  existingSecretKey: admin-api-key
  optional: true
{{- end }}

{{/* An upstream URL: the value, else the service chart of the same release on its default port. */}}
{{- define "api-gateway.upstream" -}}
{{- default (printf "http://%s:8080" (include "trilha.siblingFullname" .)) .url }}
{{- end }}

{{/* The TLS certificate the gateway serves itself (tls.terminatedByProxy false). */}}
{{- define "api-gateway.volumes" -}}
{{- if not .Values.tls.terminatedByProxy }}
- name: tls
  secret:
    secretName: {{ required "api-gateway.tls.secretName is required when tls.terminatedByProxy is false (a kubernetes.io/tls Secret)" .Values.tls.secretName }}
{{- else }}
[]
{{- end }}
{{- end }}

{{- define "api-gateway.volumeMounts" -}}
{{- if not .Values.tls.terminatedByProxy }}
- name: tls
  mountPath: /etc/trilha/tls
  readOnly: true
{{- else }}
[]
{{- end }}
{{- end }}

{{/* Peers plus the helm test pod (which calls both the public and the ops port), or [] (anywhere) for no peers. Call with (dict "context" . "peers" <peers>). */}}
{{- define "api-gateway.withTestPod" -}}
{{- if .peers }}
{{- $test := dict "podSelector" (dict "matchLabels" (include "trilha.selectorLabels" (dict "context" .context "component" "test") | fromYaml)) }}
{{- toYaml (append .peers $test) }}
{{- else }}
[]
{{- end }}
{{- end }}

{{/* The gateway calls the services' internal ports. */}}
{{- define "api-gateway.egressTo" -}}
- to:
    - podSelector:
        matchLabels:
          app.kubernetes.io/instance: {{ .Release.Name }}
          app.kubernetes.io/component: server
  ports:
    - port: internal
      protocol: TCP
{{- end }}
