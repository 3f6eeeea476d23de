{{/*
Image reference: [registry/]repository[:tag][@digest]. The registry is global.imageRegistry,
else image.registry; the tag is image.tag, else global.imageTag, else the chart's appVersion.
A digest pins the image exactly (the tag is then only informative).
Call with the image values and the root: (dict "image" .Values.image "context" .).
*/}}
{{- define "trilha.image" -}}
{{- $global := .context.Values.global | default dict }}
{{- $registry := default .image.registry $global.imageRegistry }}
{{- $tag := .image.tag | default $global.imageTag | default .context.Chart.AppVersion | toString }}
{{- $ref := .image.repository }}
{{- if $registry }}{{ $ref = printf "%s/%s" $registry $ref }}{{ end }}
{{- if $tag }}{{ $ref = printf "%s:%s" $ref $tag }}{{ end }}
{{- if .image.digest }}{{ $ref = printf "%s@%s" $ref .image.digest }}{{ end }}
{{- $ref }}
{{- end }}

{{- define "trilha.imagePullSecrets" -}}
{{- $secrets := concat (.Values.global.imagePullSecrets | default list) (.Values.imagePullSecrets | default list) | uniq }}
{{- with $secrets }}
imagePullSecrets:
{{- range . }}
  - name: {{ . }}
{{- end }}
{{- end }}
{{- end }}
