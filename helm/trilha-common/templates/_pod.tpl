{{/*
The common pod template of a Trilha service: the service's image and settings, a non-root
read-only container with only /tmp writable (plus the files of the global values, e.g. the Kafka
CA), no service-account token. The Deployment adds
ports, probes and spreading; the migrations Job adds `migrate`.
Call with (dict "context" . "component" "server"|"migrations" "secretName" <Secret of the settings>
           "args" <list> "volumes" <list> "volumeMounts" <list> "checksum" <string>).
*/}}
{{- define "trilha.podTemplate" -}}
{{- $ctx := .context }}
{{- $v := $ctx.Values }}
{{- $server := eq .component "server" -}}
metadata:
  labels:
    {{- include "trilha.labels" (dict "context" $ctx "component" .component) | nindent 4 }}
    {{- with $v.podLabels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  annotations:
    checksum/settings: {{ .checksum }}
    {{- with $v.podAnnotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  {{- if $server }}
  serviceAccountName: {{ include "trilha.serviceAccountName" $ctx }}
  {{- else if $v.migrations.serviceAccountName }}
  serviceAccountName: {{ $v.migrations.serviceAccountName }}
  {{- end }}
  automountServiceAccountToken: false
  {{- with include "trilha.imagePullSecrets" $ctx }}
  {{- . | nindent 2 }}
  {{- end }}
  {{- with $v.podSecurityContext }}
  securityContext:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $v.priorityClassName }}
  priorityClassName: {{ . }}
  {{- end }}
  {{- if $server }}
  terminationGracePeriodSeconds: {{ $v.terminationGracePeriodSeconds }}
  {{- with $v.topologySpreadConstraints }}
  {{- $selector := dict "matchLabels" (include "trilha.selectorLabels" (dict "context" $ctx "component" "server") | fromYaml) }}
  {{- $constraints := list }}
  {{- range . }}
  {{- $constraints = append $constraints (merge (dict) . (dict "labelSelector" $selector)) }}
  {{- end }}
  topologySpreadConstraints:
    {{- toYaml $constraints | nindent 4 }}
  {{- end }}
  {{- else }}
  restartPolicy: Never
  {{- end }}
  containers:
    - name: {{ $ctx.Chart.Name }}
      image: {{ include "trilha.image" (dict "image" $v.image "context" $ctx) | quote }}
      imagePullPolicy: {{ $v.image.pullPolicy }}
      {{- with .args }}
      args:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $v.securityContext }}
      securityContext:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      env:
        {{- include "trilha.env" (dict "context" $ctx "secretName" .secretName) | nindent 8 }}
      {{- if $server }}
      ports:
        {{- range $name, $port := $v.ports }}
        - name: {{ $name }}
          containerPort: {{ $port }}
          protocol: TCP
        {{- end }}
      {{- with $v.startupProbe }}
      startupProbe:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $v.livenessProbe }}
      livenessProbe:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $v.readinessProbe }}
      readinessProbe:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $v.lifecycle }}
      lifecycle:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $v.resources }}
      resources:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- else }}
      {{- with $v.migrations.resources }}
      resources:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- end }}
      volumeMounts:
        - name: tmp
          mountPath: /tmp
        {{- with include "trilha.platformVolumeMounts" $ctx | fromYamlArray }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
        {{- with .volumeMounts }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
        {{- with $v.extraVolumeMounts }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
  volumes:
    - name: tmp
      emptyDir:
        sizeLimit: 64Mi
    {{- with include "trilha.platformVolumes" $ctx | fromYamlArray }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
    {{- with .volumes }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
    {{- with $v.extraVolumes }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with $v.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $v.affinity }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $v.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}
