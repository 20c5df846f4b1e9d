{{- define "common.deployment" -}}
{{- include "common.validate" . }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "common.fullname" . }}
  labels:
    {{- include "common.labels" . | nindent 4 }}
spec:
  {{- if not .Values.autoscaling.enabled }}
  replicas: {{ .Values.replicaCount }}
  {{- end }}
  revisionHistoryLimit: {{ .Values.revisionHistoryLimit }}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 0
  selector:
    matchLabels:
      {{- include "common.serverSelectorLabels" . | nindent 6 }}
  template:
    metadata:
      annotations:
        # Changing the configuration or the chart-created Secret rolls the pods.
        checksum/config: {{ include "common.configmap" . | sha256sum }}
        {{- if and .Values.city .Values.city.boundaryGeoJson }}
        checksum/city: {{ .Values.city.boundaryGeoJson | sha256sum }}
        {{- end }}
        {{- if include "common.createSecret" . }}
        checksum/secret: {{ include "common.secret" . | sha256sum }}
        {{- end }}
        {{- with .Values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      labels:
        {{- include "common.labels" . | nindent 8 }}
        app.kubernetes.io/component: server
        {{- with .Values.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "common.serviceAccountName" . }}
      automountServiceAccountToken: {{ .Values.serviceAccount.automountServiceAccountToken }}
      terminationGracePeriodSeconds: {{ .Values.terminationGracePeriodSeconds }}
      {{- include "common.podCommon" . | nindent 6 }}
      {{- with .Values.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- if .Values.topologySpreadConstraints }}
      topologySpreadConstraints:
        {{- tpl (toYaml .Values.topologySpreadConstraints) . | nindent 8 }}
      {{- end }}
      containers:
        - name: {{ .Chart.Name }}
          image: {{ include "common.image" . | quote }}
          imagePullPolicy: {{ include "common.imagePullPolicy" . }}
          args: ["serve"]
          ports:
            - name: http
              containerPort: {{ .Values.config.http.port }}
              protocol: TCP
          envFrom:
            - configMapRef:
                name: {{ include "common.fullname" . }}
            - secretRef:
                name: {{ include "common.secretName" . }}
          env:
            {{- include "common.podEnv" . | nindent 12 }}
          {{- if .Values.probes.startup.enabled }}
          startupProbe:
            httpGet:
              path: /healthz
              port: http
            periodSeconds: {{ .Values.probes.startup.periodSeconds }}
            timeoutSeconds: {{ .Values.probes.startup.timeoutSeconds }}
            failureThreshold: {{ .Values.probes.startup.failureThreshold }}
          {{- end }}
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
            periodSeconds: {{ .Values.probes.liveness.periodSeconds }}
            timeoutSeconds: {{ .Values.probes.liveness.timeoutSeconds }}
            failureThreshold: {{ .Values.probes.liveness.failureThreshold }}
          readinessProbe:
            httpGet:
              path: /readyz
              port: http
            periodSeconds: {{ .Values.probes.readiness.periodSeconds }}
            timeoutSeconds: {{ .Values.probes.readiness.timeoutSeconds }}
            failureThreshold: {{ .Values.probes.readiness.failureThreshold }}
            successThreshold: 1
          {{- if gt (int .Values.lifecycle.preStopSleepSeconds) 0 }}
          lifecycle:
            preStop:
              # Keep serving while the endpoint removal reaches every proxy;
              # SIGTERM (graceful shutdown) follows when the sleep ends.
              exec:
                command: ["sleep", "{{ .Values.lifecycle.preStopSleepSeconds }}"]
          {{- end }}
          resources:
            {{- toYaml .Values.resources | nindent 12 }}
          securityContext:
            {{- include "common.containerSecurityContext" . | nindent 12 }}
          volumeMounts:
            {{- include "common.volumeMounts" . | nindent 12 }}
      volumes:
        {{- include "common.volumes" . | nindent 8 }}
{{- end }}
