{{/*
The shared helpers live in the library chart deploy/helm/common
(common.name, common.fullname, common.labels, common.selectorLabels,
common.serviceAccountName, common.image, common.envPrefix, ...), so the three
service charts name, label and configure their objects the same way.
Chart-local aliases, for templates added to this chart only:
*/}}
{{- define "platform-messages.fullname" -}}
{{- include "common.fullname" . }}
{{- end }}

{{- define "platform-messages.labels" -}}
{{- include "common.labels" . }}
{{- end }}
