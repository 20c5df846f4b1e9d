{{/* Shared body of templates/NOTES.txt. */}}
{{- define "common.notes" -}}
{{- if include "common.missingDatabaseUrl" . }}
WARNING: no database URL is configured. Set secrets.databaseUrl or
secrets.existingSecret (a Secret with the key {{ include "common.envPrefix" . }}__DATABASE__URL);
until then the migration Job and the pods fail.

{{ end }}
{{- if and .Values.config.captcha .Values.config.captcha.enabled (not .Values.secrets.existingSecret) (not .Values.secrets.captchaSecret) (not (hasKey (.Values.secrets.env | default dict) (printf "%s__CAPTCHA__SECRET" (include "common.envPrefix" .)))) }}
WARNING: no CAPTCHA secret is configured. Set secrets.captchaSecret (or the key
{{ include "common.envPrefix" . }}__CAPTCHA__SECRET of secrets.existingSecret); until then the
migration Job and the pods stop at start-up ("captcha.secret … is required").

{{ end }}
{{- if and .Values.city (not .Values.city.boundaryGeoJson) }}
WARNING: no city boundary is configured (city.boundaryGeoJson). Set it with
--set-file city.boundaryGeoJson=city.geojson; until then the pods cannot read
{{ .Values.config.city.boundary_file }} and do not start.

{{ end }}
{{ .Chart.Name }} {{ .Chart.AppVersion }} is deployed as release "{{ .Release.Name }}" in namespace "{{ .Release.Namespace }}".

Image:     {{ include "common.image" . }}
Service:   http://{{ include "common.fullname" . }}.{{ .Release.Namespace }}.svc:{{ .Values.service.port }}{{ .Values.config.http.base_path }}
OpenAPI:   {{ .Values.config.http.base_path }}/docs  (JSON: {{ .Values.config.http.base_path }}/docs/openapi.json)
Probes:    /healthz (process), /readyz (database{{ if .Values.mqtt }} and MQTT broker{{ end }}); metrics at /metrics
Secret:    {{ include "common.secretName" . }}{{ if .Values.secrets.existingSecret }} (managed outside this chart){{ else }} (created by this chart){{ end }}
Migrations: {{ if .Values.migration.enabled }}run by the pre-install/pre-upgrade hook Job "{{ include "common.fullname" . | trunc 55 | trimSuffix "-" }}-migrate"{{ else }}hook disabled: run `{{ .Chart.Name }} migrate` yourself before upgrading{{ end }}

Check the rollout:
  kubectl -n {{ .Release.Namespace }} rollout status deployment/{{ include "common.fullname" . }}
  kubectl -n {{ .Release.Namespace }} port-forward svc/{{ include "common.fullname" . }} {{ .Values.service.port }}:{{ .Values.service.port }}
  curl -fsS http://127.0.0.1:{{ .Values.service.port }}/readyz
{{- if .Values.ingress.enabled }}

Ingress:
{{- range .Values.ingress.hosts }}
{{- $host := .host }}
{{- range .paths }}
  http{{ if $.Values.ingress.tls }}s{{ end }}://{{ $host }}{{ .path }}
{{- end }}
{{- end }}
{{- end }}
{{- if .Values.secrets.existingSecret }}

The pods do not restart by themselves when Secret "{{ .Values.secrets.existingSecret }}" changes:
  kubectl -n {{ .Release.Namespace }} rollout restart deployment/{{ include "common.fullname" . }}
{{- end }}
{{- end }}
