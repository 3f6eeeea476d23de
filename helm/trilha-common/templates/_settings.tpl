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
{{- $settings = concat $settings (include (printf "%s.secretSettings" .Chart.Name) . | fromYamlArray) }}
{{- toYaml $settings }}
{{- end }}

{{/* Data of the chart's own Secret: the secret settings given as values. Empty when every one comes from an existing Secret. */}}
{{- define "trilha.secretData" -}}
{{- $data := dict }}
{{- range (include "trilha.secretSettings" . | fromYamlArray) }}
{{- if and (not .existingSecret) .value }}
{{- $_ := set $data .key (.value | toString | b64enc) }}
{{- end }}
{{- end }}
{{- if $data }}{{ toYaml $data }}{{ end }}
{{- end }}

{{/* Plain settings every service reads (libs/platform/config/src/settings.ts). */}}
{{- define "trilha.platformEnv" -}}
{{- $g := .Values.global }}
- name: KAFKA_BROKERS
  value: {{ required "global.kafka.brokers is required (comma-separated host:port list of the Kafka bootstrap brokers)" $g.kafka.brokers | quote }}
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
{{- range (include "trilha.secretSettings" $ctx | fromYamlArray) }}
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
