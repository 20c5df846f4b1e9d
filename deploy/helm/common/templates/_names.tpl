{{/*
Names and labels shared by the citizen-services charts.
Every template here takes the chart's root context (".") unless noted.
*/}}

{{/* Chart name, overridable with .Values.nameOverride. */}}
{{- define "common.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified app name, at most 63 characters (DNS label). When the release
name already contains the chart name it is used alone, so
`helm install citizen-api deploy/helm/citizen-api` gives Service `citizen-api`.
*/}}
{{- define "common.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* "name-version" for the helm.sh/chart label. */}}
{{- define "common.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Environment variable prefix of the service: the chart name upper-cased with
"-" turned into "_" (citizen-api -> CITIZEN_API). The chart name equals the
binary name, so this is the prefix the binary reads.
*/}}
{{- define "common.envPrefix" -}}
{{- .Chart.Name | upper | replace "-" "_" }}
{{- end }}

{{/* Selector labels: stable across upgrades, never add version-like values here. */}}
{{- define "common.selectorLabels" -}}
app.kubernetes.io/name: {{ include "common.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Selector labels of the long-running server pods. The component label keeps
the migration and import Job pods out of the Service, the PDB and the
NetworkPolicy, which select by these.
*/}}
{{- define "common.serverSelectorLabels" -}}
{{ include "common.selectorLabels" . }}
app.kubernetes.io/component: server
{{- end }}

{{/* Common labels on every object. */}}
{{- define "common.labels" -}}
helm.sh/chart: {{ include "common.chart" . }}
{{ include "common.selectorLabels" . }}
{{- if .Chart.AppVersion }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: citizen-services
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Name of the ServiceAccount the pods run as. */}}
{{- define "common.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "common.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Container image reference: repository[:tag][@digest]; tag defaults to appVersion. */}}
{{- define "common.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag | toString }}
{{- if .Values.image.digest }}
{{- printf "%s:%s@%s" .Values.image.repository $tag .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository $tag }}
{{- end }}
{{- end }}

{{/*
imagePullPolicy: image.pullPolicy when set; otherwise IfNotPresent for an
image pinned by digest (immutable, nothing to re-check) and Always for a tag
(a tag can be re-pushed; Always makes the kubelet resolve it at every pod
start and check the pull credentials instead of using a node's cached copy).
*/}}
{{- define "common.imagePullPolicy" -}}
{{- if .Values.image.pullPolicy }}
{{- .Values.image.pullPolicy }}
{{- else if .Values.image.digest }}
{{- "IfNotPresent" }}
{{- else }}
{{- "Always" }}
{{- end }}
{{- end }}

{{/* Name of the Secret holding the service's secret environment variables. */}}
{{- define "common.secretName" -}}
{{- if .Values.secrets.existingSecret }}
{{- .Values.secrets.existingSecret }}
{{- else }}
{{- include "common.fullname" . }}
{{- end }}
{{- end }}

{{/* Name of the hook-time copy of the Secret used by the migration Job. */}}
{{- define "common.hookSecretName" -}}
{{- if .Values.secrets.existingSecret }}
{{- .Values.secrets.existingSecret }}
{{- else }}
{{- printf "%s-migrate" (include "common.fullname" . | trunc 55 | trimSuffix "-") }}
{{- end }}
{{- end }}
