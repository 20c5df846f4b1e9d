{{/*
Migration Job: `<bin> migrate` as a pre-install/pre-upgrade hook, so the
schema is current before any new pod starts. Weight 0, after the hook Secret
(-10). A failed Job is kept (for `kubectl logs`) and replaced on the next try
(before-hook-creation); a successful one is deleted.
The environment is written into the Job itself instead of coming from the
ConfigMap, which does not exist yet at pre-install.
*/}}
{{- define "common.migrationJob" -}}
{{- if .Values.migration.enabled }}
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ printf "%s-migrate" (include "common.fullname" . | trunc 55 | trimSuffix "-") }}
  labels:
    {{- include "common.labels" . | nindent 4 }}
    app.kubernetes.io/component: migration
  annotations:
    "helm.sh/hook": pre-install,pre-upgrade
    "helm.sh/hook-weight": "0"
    "helm.sh/hook-delete-policy": before-hook-creation,hook-succeeded
spec:
  backoffLimit: {{ .Values.migration.backoffLimit }}
  activeDeadlineSeconds: {{ .Values.migration.activeDeadlineSeconds }}
  template:
    metadata:
      labels:
        {{- include "common.labels" . | nindent 8 }}
        app.kubernetes.io/component: migration
      {{- with .Values.migration.podAnnotations }}
      annotations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    spec:
      restartPolicy: Never
      {{- /* A chart-created ServiceAccount does not exist yet at pre-install: use it only when it is pre-existing. */}}
      {{- if and (not .Values.serviceAccount.create) .Values.serviceAccount.name }}
      serviceAccountName: {{ .Values.serviceAccount.name }}
      {{- end }}
      automountServiceAccountToken: false
      {{- include "common.podCommon" . | nindent 6 }}
      containers:
        - name: migrate
          image: {{ include "common.image" . | quote }}
          imagePullPolicy: {{ include "common.imagePullPolicy" . }}
          args: ["migrate"]
          envFrom:
            - secretRef:
                name: {{ include "common.hookSecretName" . }}
          env:
            {{- range $name, $value := (include "common.configEnv" . | fromYaml) }}
            - name: {{ $name }}
              value: {{ $value | quote }}
            {{- end }}
            {{- include "common.podEnv" . | nindent 12 }}
          resources:
            {{- toYaml (.Values.migration.resources | default .Values.resources) | nindent 12 }}
          securityContext:
            {{- include "common.containerSecurityContext" . | nindent 12 }}
          volumeMounts:
            {{- include "common.volumeMounts" . | nindent 12 }}
      volumes:
        {{- include "common.volumes" . | nindent 8 }}
{{- end }}
{{- end }}
