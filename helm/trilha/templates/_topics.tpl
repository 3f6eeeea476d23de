{{/* The topics with their replication factor and configuration, as the topics Job reads them (KAFKA_TOPICS). */}}
{{- define "trilha.topics" -}}
{{- $t := .Values.kafkaTopics }}
{{- $topics := list }}
{{- range $t.topics }}
{{- $topics = append $topics (dict "name" .name "partitions" .partitions "replicationFactor" $t.replicationFactor "config" $t.config) }}
{{- end }}
{{- toJson $topics }}
{{- end }}
