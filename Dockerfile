FROM node:24-bookworm-slim
# ffmpeg for video previews. bubblewrap is the sandbox LibreOffice runs in: an image that adds
# LibreOffice (libreoffice-impress-nogui libreoffice-writer-nogui) converts office documents only
# inside it, and bwrap needs user namespaces, which Docker's default seccomp profile refuses
# (run the builder with a profile that allows them); without the sandbox visitors get the download card.
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg bubblewrap && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build
# The code stays root's (read-only to the server); only the data folder (DATA_DIR) is the server's.
RUN mkdir -p /app/data && chown node:node /app/data
ENV NODE_ENV=production
# The settings of control-api/api-launch.mjs.
ENV MALLOC_ARENA_MAX=2
EXPOSE 3000
USER node
CMD ["node", "--max-semi-space-size=2", "control-api/src/main.ts"]
