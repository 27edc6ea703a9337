FROM node:24-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build
ENV NODE_ENV=production
# The settings of control-api/api-launch.mjs.
ENV MALLOC_ARENA_MAX=2
EXPOSE 3000
CMD ["node", "--max-semi-space-size=2", "control-api/src/main.ts"]
