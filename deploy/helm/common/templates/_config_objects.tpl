{{/* ConfigMap with the non-secret environment (<PREFIX>__SECTION__KEY). */}}
{{- define "common.configmap" -}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "common.fullname" . }}
  labels:
    {{- include "common.labels" . | nindent 4 }}
data:
  {{- include "common.configEnv" . | nindent 2 }}
{{- end }}

{{/*
Secret with the secret environment, rendered only when secrets.existingSecret
is empty. Keys are environment variable names, loaded with envFrom.
*/}}
{{- define "common.secret" -}}
{{- if include "common.createSecret" . }}
apiVersion: v1
kind: Secret
metadata:
  name: {{ include "common.secretName" . }}
  labels:
    {{- include "common.labels" . | nindent 4 }}
type: Opaque
stringData:
  {{- include "common.secretEnv" . | nindent 2 }}
{{- end }}
{{- end }}

{{/*
A copy of the Secret for the migration hook. Hooks run before the release's
ordinary objects exist (pre-install) or are updated (pre-upgrade), so the Job
cannot use the ordinary Secret; this copy is itself a hook with a lower weight
than the Job, created first and deleted once all hooks succeeded. With
secrets.existingSecret nothing is rendered: that Secret already exists.
*/}}
{{- define "common.hookSecret" -}}
{{- if and .Values.migration.enabled (include "common.createSecret" .) }}
apiVersion: v1
kind: Secret
metadata:
  name: {{ include "common.hookSecretName" . }}
  labels:
    {{- include "common.labels" . | nindent 4 }}
    app.kubernetes.io/component: migration
  annotations:
    "helm.sh/hook": pre-install,pre-upgrade
    "helm.sh/hook-weight": "-10"
    "helm.sh/hook-delete-policy": before-hook-creation,hook-succeeded
type: Opaque
stringData:
  {{- include "common.secretEnv" . | nindent 2 }}
{{- end }}
{{- end }}

{{- define "common.serviceaccount" -}}
{{- if .Values.serviceAccount.create }}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "common.serviceAccountName" . }}
  labels:
    {{- include "common.labels" . | nindent 4 }}
  {{- with .Values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
automountServiceAccountToken: {{ .Values.serviceAccount.automountServiceAccountToken }}
{{- end }}
{{- end }}

{{- define "common.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "common.fullname" . }}
  labels:
    {{- include "common.labels" . | nindent 4 }}
  {{- with .Values.service.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  type: {{ .Values.service.type }}
  ports:
    - name: http
      port: {{ .Values.service.port }}
      targetPort: http
      protocol: TCP
      appProtocol: http
  selector:
    {{- include "common.serverSelectorLabels" . | nindent 4 }}
{{- end }}
