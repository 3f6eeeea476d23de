{{/*
The service's settings (environment variables), in one place for the Deployment and the
migrations Job, which need the same ones (`main.js migrate` validates the whole configuration
before it migrates).

Secret settings are declared as a list of
  {env, key, value, existingSecret, existingSecretKey, optional, hint}
and rendered as secretKeyRefs: to existingSecret/existingSecretKey when an existing Secret is
named, else to the chart's own Secret (key `key`, data `value`). A required setting with
neither fails the render naming the value to set. The platform's come from here; a chart adds
its own with a template "<chart>.secretSettings" and its plain settings with "<chart>.env".
*/}}

{{/* The database URL of this service: its own `database` values when set, else global.database. */}}
{{- define "trilha.databaseSetting" -}}
{{- $own := .Values.database | default dict }}
{{- $db := ternary $own .Values.global.database (or (not (empty $own.url)) (not (empty $own.existingSecret))) }}
{{- toYaml (dict "env" "DATABASE_URL" "key" "database-url" "value" $db.url "existingSecret" $db.existingSecret "existingSecretKey" (default "database-url" $db.existingSecretKey) "hint" "global.database.url (or global.database.existingSecret)") }}
{{- end }}

{{- define "trilha.secretSettings" -}}
{{- $settings := list (include "trilha.databaseSetting" . | fromYaml) }}
{{- $settings = append $settings (dict "env" "INTERNAL_API_TOKEN" "key" "internal-api-token" "value" .Values.global.internalApiToken "existingSecret" .Values.global.existingSecret "existingSecretKey" "internal-api-token" "hint" "global.internalApiToken (or global.existingSecret)") }}
{{- $settings = concat $settings (include "trilha.kafkaSecretSettings" . | fromYamlArray) }}
{{- $settings = concat $settings (include (printf "%s.secretSettings" .Chart.Name) . | fromYamlArray) }}
{{- toYaml $settings }}
{{- end }}

{{/* Data of the chart's own Secret: the secret settings given as values. Empty when every one comes from an existing Secret. */}}
{{- define "trilha.secretData" -}}
{{- include "trilha.secretDataOf" (include "trilha.secretSettings" . | fromYamlArray) }}
{{- end }}

{{/* Data of a Secret holding the given secret settings' values (those not from an existing Secret). */}}
{{- define "trilha.secretDataOf" -}}
{{- $data := dict }}
{{- range . }}
{{- if and (not .existingSecret) .value }}
{{- $_ := set $data .key (.value | toString | b64enc) }}
{{- end }}
{{- end }}
{{- if $data }}{{ toYaml $data }}{{ end }}
{{- end }}

{{/*
Secret settings as EnvVars: secretKeyRefs to their existing Secret, or to `secretName` (the
Secret holding the values). A required one without either fails the render.
Call with (dict "settings" <list> "secretName" <name>).
*/}}
{{- define "trilha.secretEnv" -}}
{{- $env := list }}
{{- range .settings }}
{{- if .existingSecret }}
{{- $ref := dict "name" .existingSecret "key" .existingSecretKey }}
{{- if .optional }}{{ $_ := set $ref "optional" true }}{{ end }}
{{- $env = append $env (dict "name" .env "valueFrom" (dict "secretKeyRef" $ref)) }}
{{- else if .value }}
{{- $env = append $env (dict "name" .env "valueFrom" (dict "secretKeyRef" (dict "name" $.secretName "key" .key))) }}
{{- else if not .optional }}
{{- fail (printf "%s is required: set %s" .env .hint) }}
{{- end }}
{{- end }}
{{- toYaml $env }}
{{- end }}

{{/*
How every Trilha process reaches Kafka (libs/platform/config/src/settings.ts, kafkaSettings):
the brokers, TLS (KAFKA_SSL, the CA mounted from a Secret or ConfigMap: trilha.kafkaCa in _files.tpl) and
SASL. The services, the migrations Jobs and the topics Job all use these. Call with the root.
*/}}
{{- define "trilha.kafkaEnv" -}}
{{- $k := .Values.global.kafka }}
{{- $tls := $k.tls | default dict }}
{{- $sasl := $k.sasl | default dict }}
- name: KAFKA_BROKERS
  value: {{ required "global.kafka.brokers is required (comma-separated host:port list of the Kafka bootstrap brokers)" $k.brokers | quote }}
{{- if $tls.enabled }}
- name: KAFKA_SSL
  value: "true"
{{- with include "trilha.kafkaCaFile" . }}
- name: KAFKA_SSL_CA_FILE
  value: {{ . | quote }}
{{- end }}
{{- else if include "trilha.kafkaCaFile" . }}
{{- fail "global.kafka.tls.ca is set but global.kafka.tls.enabled is false: enable TLS, or remove the CA" }}
{{- end }}
{{- with $sasl.mechanism }}
- name: KAFKA_SASL_MECHANISM
  value: {{ . | quote }}
- name: KAFKA_SASL_USERNAME
  value: {{ required "global.kafka.sasl.username is required when global.kafka.sasl.mechanism is set" $sasl.username | quote }}
{{- end }}
{{- end }}

{{/* The SASL password, a secret setting (with global.kafka.sasl.mechanism only). */}}
{{- define "trilha.kafkaSecretSettings" -}}
{{- $sasl := .Values.global.kafka.sasl | default dict }}
{{- if $sasl.mechanism }}
{{- toYaml (list (dict "env" "KAFKA_SASL_PASSWORD" "key" "kafka-sasl-password" "value" $sasl.password "existingSecret" $sasl.existingSecret "existingSecretKey" (default "password" $sasl.existingSecretKey) "hint" "global.kafka.sasl.password (or global.kafka.sasl.existingSecret)")) }}
{{- else }}
[]
{{- end }}
{{- end }}

{{/* Plain settings every service reads (libs/platform/config/src/settings.ts). */}}
{{- define "trilha.platformEnv" -}}
{{- $g := .Values.global }}
{{- include "trilha.kafkaEnv" . }}
- name: DATABASE_POOL_SIZE
  value: {{ default $g.database.poolSize (.Values.database | default dict).poolSize | quote }}
- name: OPS_PORT
  value: {{ .Values.ports.ops | quote }}
- name: LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
- name: DB_MIGRATIONS_RUN
  value: "false"
{{- with $g.otel.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
{{- end }}
- name: OTEL_TRACES_SAMPLER
  value: {{ $g.otel.sampler | quote }}
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ $g.otel.samplerRatio | quote }}
{{- end }}

{{/*
The container's env: platform settings, the chart's settings, its secret settings, then
`config` (plain extra settings) and `extraEnv` (raw EnvVars). A name set twice fails the render:
`config` and `extraEnv` add settings, they do not override the chart's.
Call with (dict "context" . "secretName" "<the Secret of the chart's own secret values>").
*/}}
{{- define "trilha.env" -}}
{{- $ctx := .context }}
{{- $env := include "trilha.platformEnv" $ctx | fromYamlArray }}
{{- $env = concat $env (include (printf "%s.env" $ctx.Chart.Name) $ctx | fromYamlArray) }}
{{- $env = concat $env (include "trilha.secretEnv" (dict "settings" (include "trilha.secretSettings" $ctx | fromYamlArray) "secretName" .secretName) | fromYamlArray) }}
{{- range $name, $value := $ctx.Values.config }}
{{- $env = append $env (dict "name" $name "value" ($value | toString)) }}
{{- end }}
{{- $env = concat $env ($ctx.Values.extraEnv | default list) }}
{{- $seen := dict }}
{{- range $env }}
{{- if hasKey $seen .name }}
{{- fail (printf "environment variable %s is set twice: the chart sets it from its values, so remove it from config/extraEnv" .name) }}
{{- end }}
{{- $_ := set $seen .name true }}
{{- end }}
{{- toYaml $env }}
{{- end }}

{{/* Settings of a service behind the gateway (libs/platform/service-runtime/src/run-internal-service.ts). */}}
{{- define "trilha.internalServiceEnv" -}}
- name: INTERNAL_PORT
  value: {{ .Values.ports.internal | quote }}
{{- end }}
