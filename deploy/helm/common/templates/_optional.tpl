{{/* Optional objects: all off by default except the NetworkPolicy. */}}

{{- define "common.ingress" -}}
{{- if .Values.ingress.enabled }}
{{- $fullname := include "common.fullname" . }}
{{- $port := .Values.service.port }}
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "common.labels" . | nindent 4 }}
  {{- with .Values.ingress.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  {{- with .Values.ingress.className }}
  ingressClassName: {{ . }}
  {{- end }}
  {{- with .Values.ingress.tls }}
  tls:
    {{- range . }}
    - hosts:
        {{- range .hosts }}
        - {{ . | quote }}
        {{- end }}
      secretName: {{ .secretName }}
    {{- end }}
  {{- end }}
  rules:
    {{- range .Values.ingress.hosts }}
    - host: {{ .host | quote }}
      http:
        paths:
          {{- range .paths }}
          - path: {{ .path }}
            pathType: {{ .pathType | default "Prefix" }}
            backend:
              service:
                name: {{ $fullname }}
                port:
                  number: {{ $port }}
          {{- end }}
    {{- end }}
{{- end }}
{{- end }}

{{- define "common.hpa" -}}
{{- if .Values.autoscaling.enabled }}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "common.fullname" . }}
  labels:
    {{- include "common.labels" . | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "common.fullname" . }}
  minReplicas: {{ .Values.autoscaling.minReplicas }}
  maxReplicas: {{ .Values.autoscaling.maxReplicas }}
  metrics:
    {{- with .Values.autoscaling.targetCPUUtilizationPercentage }}
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ . }}
    {{- end }}
    {{- with .Values.autoscaling.targetMemoryUtilizationPercentage }}
    - type: Resource
      resource:
        name: memory
        target:
          type: Utilization
          averageUtilization: {{ . }}
    {{- end }}
  {{- with .Values.autoscaling.behavior }}
  behavior:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}
{{- end }}

{{- define "common.pdb" -}}
{{- if .Values.podDisruptionBudget.enabled }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "common.fullname" . }}
  labels:
    {{- include "common.labels" . | nindent 4 }}
spec:
  {{- if .Values.podDisruptionBudget.maxUnavailable }}
  maxUnavailable: {{ .Values.podDisruptionBudget.maxUnavailable }}
  {{- else }}
  minAvailable: {{ .Values.podDisruptionBudget.minAvailable | default 1 }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "common.serverSelectorLabels" . | nindent 6 }}
{{- end }}
{{- end }}

{{- define "common.servicemonitor" -}}
{{- if .Values.serviceMonitor.enabled }}
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ include "common.fullname" . }}
  labels:
    {{- include "common.labels" . | nindent 4 }}
    {{- with .Values.serviceMonitor.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  selector:
    matchLabels:
      {{- include "common.selectorLabels" . | nindent 6 }}
  namespaceSelector:
    matchNames:
      - {{ .Release.Namespace }}
  endpoints:
    - port: http
      path: /metrics
      interval: {{ .Values.serviceMonitor.interval }}
      scrapeTimeout: {{ .Values.serviceMonitor.scrapeTimeout }}
{{- end }}
{{- end }}

{{/*
NetworkPolicy (on by default): ingress to the http port only from the peers
in networkPolicy.ingressFrom (ingress controller / reverse proxy, Prometheus);
with egress.enabled, egress only to DNS plus the destinations in
egress.allow (database, MQTT broker, OIDC JWKS, ... per chart) and the raw
egress.rules.
ingressFrom is a map of named peer lists (null or [] drops an entry) or, as
in chart 0.1.0, a plain list of peers; no peer at all = any peer, but still
only on the http port.
egress.allow.<name>: {enabled, ports, cidrs, to}; ports are numbers (TCP) or
NetworkPolicyPort objects, cidrs become ipBlock peers, cidrs and to both empty
= any destination on those ports. null or enabled: false drops an entry.
*/}}
{{- define "common.networkpolicy.ports" -}}
{{- range . }}
{{- if kindIs "map" . }}
- {{ toYaml (merge (dict) . (dict "protocol" "TCP")) | indent 2 | trim }}
{{- else }}
- port: {{ . }}
  protocol: TCP
{{- end }}
{{- end }}
{{- end }}

{{- define "common.networkpolicy" -}}
{{- if .Values.networkPolicy.enabled }}
{{- $np := .Values.networkPolicy }}
{{- $from := list }}
{{- if kindIs "slice" $np.ingressFrom }}
{{- $from = $np.ingressFrom }}
{{- else }}
{{- range $name, $peers := $np.ingressFrom }}
{{- if $peers }}
{{- $from = concat $from $peers }}
{{- end }}
{{- end }}
{{- end }}
{{- $egress := $np.egress | default dict }}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ include "common.fullname" . }}
  labels:
    {{- include "common.labels" . | nindent 4 }}
spec:
  # All pods of the release: the server pods and the migration/import Job pods.
  podSelector:
    matchLabels:
      {{- include "common.selectorLabels" . | nindent 6 }}
  policyTypes:
    - Ingress
    {{- if $egress.enabled }}
    - Egress
    {{- end }}
  ingress:
    - ports:
        - port: http
          protocol: TCP
      {{- with $from }}
      from:
        {{- toYaml . | nindent 8 }}
      {{- end }}
  {{- if $egress.enabled }}
  egress:
    # DNS
    - ports:
        - port: 53
          protocol: UDP
        - port: 53
          protocol: TCP
      {{- with $egress.dnsTo }}
      to:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- range $name, $rule := $egress.allow }}
    {{- if and $rule (or (not (hasKey $rule "enabled")) $rule.enabled) }}
    {{- if not $rule.ports }}
    {{- fail (printf "networkPolicy.egress.allow.%s.ports is empty (that would allow every port); set the ports or drop the entry with null" $name) }}
    {{- end }}
    {{- $to := list }}
    {{- range $rule.cidrs }}
    {{- $to = append $to (dict "ipBlock" (dict "cidr" .)) }}
    {{- end }}
    {{- $to = concat $to ($rule.to | default list) }}
    # {{ $name }}
    - ports:
        {{- include "common.networkpolicy.ports" $rule.ports | trim | nindent 8 }}
      {{- with $to }}
      to:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- end }}
    {{- end }}
    {{- with $egress.rules }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- end }}
{{- end }}
{{- end }}
