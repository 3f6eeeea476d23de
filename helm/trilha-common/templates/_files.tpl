{{/*
Files a setting names, taken from one key of a Secret or a ConfigMap you created (a CA bundle)
and mounted read-only, that key alone, at /etc/trilha/<name>/<key>. `source` is the values block
{secretName, configMapName, key}; `what` its path in the values, for error messages.
Call with (dict "name" "kafka-ca" "source" <values> "what" "global.kafka.tls.ca").
*/}}

{{/* The file's path in the container; empty when the source names neither a Secret nor a ConfigMap. */}}
{{- define "trilha.filePath" -}}
{{- $source := .source | default dict }}
{{- if and $source.secretName $source.configMapName }}
{{- fail (printf "%s: give secretName or configMapName, not both" .what) }}
{{- end }}
{{- if or $source.secretName $source.configMapName -}}
/etc/trilha/{{ .name }}/{{ required (printf "%s.key is required" .what) $source.key }}
{{- end }}
{{- end }}

{{- define "trilha.fileVolume" -}}
{{- $source := .source | default dict }}
{{- $items := list (dict "key" $source.key "path" $source.key) }}
{{- if $source.secretName }}
- name: {{ .name }}
  secret:
    secretName: {{ $source.secretName }}
    items: {{ toJson $items }}
{{- else if $source.configMapName }}
- name: {{ .name }}
  configMap:
    name: {{ $source.configMapName }}
    items: {{ toJson $items }}
{{- else }}
[]
{{- end }}
{{- end }}

{{- define "trilha.fileVolumeMount" -}}
{{- if include "trilha.filePath" . }}
- name: {{ .name }}
  mountPath: /etc/trilha/{{ .name }}
  readOnly: true
{{- else }}
[]
{{- end }}
{{- end }}

{{/* The CA bundle of the Kafka brokers (global.kafka.tls.ca): KAFKA_SSL_CA_FILE. */}}
{{- define "trilha.kafkaCa" -}}
{{- toYaml (dict "name" "kafka-ca" "source" (.Values.global.kafka.tls | default dict).ca "what" "global.kafka.tls.ca") }}
{{- end }}

{{- define "trilha.kafkaCaFile" -}}
{{- include "trilha.filePath" (include "trilha.kafkaCa" . | fromYaml) }}
{{- end }}

{{/* Volumes and mounts every Trilha pod gets from the global values (the services, their migrations, the topics Job). */}}
{{- define "trilha.platformVolumes" -}}
{{- include "trilha.fileVolume" (include "trilha.kafkaCa" . | fromYaml) }}
{{- end }}

{{- define "trilha.platformVolumeMounts" -}}
{{- include "trilha.fileVolumeMount" (include "trilha.kafkaCa" . | fromYaml) }}
{{- end }}
