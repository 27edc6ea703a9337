FROM node:24-bookworm-slim
# ffmpeg for video previews; LibreOffice (Impress and Writer, no GUI) to turn decks and documents into
# PDF previews, with fonts metric-compatible with Arial, Times, Courier, Calibri and Cambria so slides
# keep their layout; bubblewrap, the sandbox every conversion runs in (builder/src/derive-office.ts).
# bwrap makes user namespaces and mounts a fresh /proc: the container that converts (compose's
# builder) needs the security options docker-compose.yml gives it, or visitors get download cards.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg bubblewrap libreoffice-impress-nogui libreoffice-writer-nogui \
    fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea fonts-dejavu-core \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build
# The code stays root's (read-only to the server); only the data folder (DATA_DIR) is the server's.
RUN mkdir -p /app/data && chown node:node /app/data
ENV NODE_ENV=production
# The settings of control-api/api-launch.mjs.
ENV MALLOC_ARENA_MAX=2
ENV GLIBC_TUNABLES=glibc.malloc.mmap_threshold=8388608:glibc.malloc.trim_threshold=33554432
EXPOSE 3000
USER node
CMD ["node", "--max-semi-space-size=2", "control-api/src/main.ts"]
