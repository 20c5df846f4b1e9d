{{/*
Pieces shared by the Deployment and the Jobs (migration, import), so every
pod of a service runs with the same image, user, security context and
environment.
*/}}

{{/* Pod-level settings common to the Deployment and the Jobs. */}}
{{- define "common.podCommon" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* Environment of every container: ConfigMap-less variant for hooks is below. */}}
{{- define "common.podEnv" -}}
- name: POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
- name: POD_NAMESPACE
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
{{- if and .Values.mqtt .Values.mqtt.clientIdFromPodName }}
{{- /* every replica needs its own MQTT client id, or the broker disconnects the older session */}}
- name: {{ include "common.envPrefix" . }}__MQTT__CLIENT_ID
  value: "$(POD_NAME)"
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
Volumes: /tmp as an emptyDir (the root filesystem is read-only), the MQTT CA
when configured, the city boundary ConfigMap (citizen-api, city.boundaryGeoJson),
then .Values.extraVolumes.
*/}}
{{- define "common.volumes" -}}
- name: tmp
  emptyDir:
    {{- with .Values.tmpVolume.sizeLimit }}
    sizeLimit: {{ . }}
    {{- end }}
    {{- with .Values.tmpVolume.medium }}
    medium: {{ . }}
    {{- end }}
{{- if and .Values.mqtt .Values.mqtt.caSecret .Values.mqtt.caSecret.name }}
- name: mqtt-ca
  secret:
    secretName: {{ .Values.mqtt.caSecret.name }}
    items:
      - key: {{ .Values.mqtt.caSecret.key | default "ca.crt" }}
        path: ca.crt
{{- end }}
{{- if and .Values.city .Values.city.boundaryGeoJson }}
- name: city
  configMap:
    name: {{ include "common.fullname" . }}-city
{{- end }}
{{- with .Values.extraVolumes }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "common.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
{{- if and .Values.mqtt .Values.mqtt.caSecret .Values.mqtt.caSecret.name }}
- name: mqtt-ca
  mountPath: /etc/{{ .Chart.Name }}/mqtt-ca
  readOnly: true
{{- end }}
{{- if and .Values.city .Values.city.boundaryGeoJson }}
- name: city
  mountPath: {{ dir .Values.config.city.boundary_file }}
  readOnly: true
{{- end }}
{{- with .Values.extraVolumeMounts }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Container securityContext. */}}
{{- define "common.containerSecurityContext" -}}
{{- toYaml .Values.securityContext }}
{{- end }}
