{{/*
Turns the nested `.Values.config` map into the service's environment
variables: config.http.port -> <PREFIX>__HTTP__PORT. Maps recurse, lists are
joined with "," (the services read list keys such as http.cors_allowed_origins
comma separated), empty strings, empty lists and nulls are left out so the
binary's own default applies. Whole floats are printed as integers (Helm
parses every YAML number as float64; 10485760 would otherwise become
1.048576e+07).
Takes a dict: prefix (string), values (map). Emits "NAME: "value"" lines.
*/}}
{{- define "common.flattenEnv" -}}
{{- $prefix := .prefix }}
{{- range $key, $value := .values }}
{{- $name := printf "%s__%s" $prefix ($key | upper | replace "-" "_") }}
{{- if kindIs "map" $value }}
{{- include "common.flattenEnv" (dict "prefix" $name "values" $value) }}
{{- else if kindIs "slice" $value }}
{{- if $value }}
{{ $name }}: {{ join "," $value | quote }}
{{- end }}
{{- else if kindIs "invalid" $value }}
{{- else if kindIs "float64" $value }}
{{- if eq (float64 (int64 $value)) $value }}
{{ $name }}: {{ printf "%d" (int64 $value) | quote }}
{{- else }}
{{ $name }}: {{ toString $value | quote }}
{{- end }}
{{- else if ne (toString $value) "" }}
{{ $name }}: {{ toString $value | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* The non-secret environment of the service as a YAML map (ConfigMap data). */}}
{{- define "common.configEnv" -}}
{{- $config := deepCopy (.Values.config | default dict) }}
{{- if and .Values.mqtt .Values.mqtt.caSecret .Values.mqtt.caSecret.name }}
{{- $mqtt := get $config "mqtt" | default dict }}
{{- if not $mqtt.ca_file }}
{{- $_ := set $mqtt "ca_file" (printf "/etc/%s/mqtt-ca/ca.crt" .Chart.Name) }}
{{- end }}
{{- $_ := set $config "mqtt" $mqtt }}
{{- end }}
{{- include "common.flattenEnv" (dict "prefix" (include "common.envPrefix" .) "values" $config) | trim }}
{{- end }}

{{/*
The secret environment as a YAML map, for a chart-created Secret:
secrets.databaseUrl -> <PREFIX>__DATABASE__URL, secrets.mqttPassword (charts
that have MQTT) -> <PREFIX>__MQTT__PASSWORD, plus secrets.env verbatim.
*/}}
{{- define "common.secretEnv" -}}
{{- include "common.secretEnvLines" . | trim }}
{{- end }}

{{- define "common.secretEnvLines" -}}
{{- $prefix := include "common.envPrefix" . }}
{{- with .Values.secrets.databaseUrl }}
{{ printf "%s__DATABASE__URL" $prefix }}: {{ . | quote }}
{{- end }}
{{- with .Values.secrets.mqttPassword }}
{{ printf "%s__MQTT__PASSWORD" $prefix }}: {{ . | quote }}
{{- end }}
{{- with .Values.secrets.captchaSecret }}
{{ printf "%s__CAPTCHA__SECRET" $prefix }}: {{ . | quote }}
{{- end }}
{{- with .Values.secrets.s3SecretAccessKey }}
{{ printf "%s__MEDIA__S3_SECRET_ACCESS_KEY" $prefix }}: {{ . | quote }}
{{- end }}
{{- with .Values.secrets.vapidPrivateKey }}
{{ printf "%s__NOTIFICATIONS__WEBPUSH__VAPID_PRIVATE_KEY" $prefix }}: {{ . | quote }}
{{- end }}
{{- with .Values.secrets.smtpUrl }}
{{ printf "%s__NOTIFICATIONS__EMAIL__SMTP_URL" $prefix }}: {{ . | quote }}
{{- end }}
{{- range $k, $v := .Values.secrets.env }}
{{ $k }}: {{ $v | quote }}
{{- end }}
{{- end }}

{{/* true when the database URL is known to be missing (chart-created Secret without it). */}}
{{- define "common.missingDatabaseUrl" -}}
{{- if and (not .Values.secrets.existingSecret) (not .Values.secrets.databaseUrl) (not (hasKey (.Values.secrets.env | default dict) (printf "%s__DATABASE__URL" (include "common.envPrefix" .)))) }}true{{ end }}
{{- end }}

{{/* true when this release renders its own Secret. */}}
{{- define "common.createSecret" -}}
{{- if not .Values.secrets.existingSecret }}true{{ end }}
{{- end }}

{{/*
Checks that turn a misconfiguration into a render error instead of a broken
rollout. Included by the Deployment.
*/}}
{{- define "common.validate" -}}
{{- $grace := int (default 20 .Values.config.http.shutdown_grace_seconds) }}
{{- $preStop := int .Values.lifecycle.preStopSleepSeconds }}
{{- $term := int .Values.terminationGracePeriodSeconds }}
{{- if le $term (add $grace $preStop) }}
{{- fail (printf "terminationGracePeriodSeconds (%d) must be larger than config.http.shutdown_grace_seconds (%d) + lifecycle.preStopSleepSeconds (%d), or Kubernetes kills pods in the middle of a graceful shutdown" $term $grace $preStop) }}
{{- end }}
{{- range $k, $v := (.Values.secrets.env | default dict) }}
{{- if contains "DEV_SECRET" $k }}
{{- fail (printf "%s: the HS256 dev secret is for local development only and must not be deployed" $k) }}
{{- end }}
{{- end }}
{{- if and .Values.config.auth (hasKey .Values.config.auth "dev_secret") }}
{{- fail "config.auth.dev_secret: the HS256 dev secret is for local development only and must not be deployed" }}
{{- end }}
{{- if and .Values.config.mqtt (hasKey .Values.config.mqtt "password") }}
{{- fail "config.mqtt.password: put the MQTT password in secrets.mqttPassword or secrets.existingSecret" }}
{{- end }}
{{- if and .Values.config.captcha (hasKey .Values.config.captcha "enabled") (not .Values.config.captcha.enabled) }}
{{- fail "config.captcha.enabled=false: turning the CAPTCHA off is for local use only; anonymous reports need it in a deployment" }}
{{- end }}
{{- if and .Values.config.web (hasKey .Values.config.web "dev_sign_in") .Values.config.web.dev_sign_in }}
{{- fail "config.web.dev_sign_in=true: the web app's dev sign-in is for local use only; citizens sign in with the city's OpenID Connect provider in a deployment" }}
{{- end }}
{{- if and .Values.config.captcha (hasKey .Values.config.captcha "secret") }}
{{- fail "config.captcha.secret: put the CAPTCHA secret in secrets.captchaSecret or secrets.existingSecret" }}
{{- end }}
{{- if and .Values.config.media (hasKey .Values.config.media "s3_secret_access_key") }}
{{- fail "config.media.s3_secret_access_key: put it in secrets.s3SecretAccessKey or secrets.existingSecret" }}
{{- end }}
{{- $notifications := .Values.config.notifications | default dict }}
{{- if hasKey ($notifications.webpush | default dict) "vapid_private_key" }}
{{- fail "config.notifications.webpush.vapid_private_key: put the VAPID key in secrets.vapidPrivateKey or secrets.existingSecret" }}
{{- end }}
{{- if hasKey ($notifications.email | default dict) "smtp_url" }}
{{- fail "config.notifications.email.smtp_url: the SMTP URL carries a password; put it in secrets.smtpUrl or secrets.existingSecret" }}
{{- end }}
{{- if and .Values.config.database (hasKey .Values.config.database "url") }}
{{- fail "config.database.url: the database URL carries a password; put it in secrets.databaseUrl or secrets.existingSecret" }}
{{- end }}
{{- end }}
