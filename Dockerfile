# One image: web server, worker and (unless REDIS_URL is given) a private Redis, all compiled
# JavaScript run with plain node (ADR 0028, 0029).
# Needs Docker Engine 25 or newer (HEALTHCHECK --start-interval, ADR 0045); Debian 12's docker.io
# is 20.10: install Docker's own packages (docs/self-hosting.md, "Docker").
# Build:  docker build -t coursegen .
# Run:    docker run -p 3000:3000 -v coursegen-data:/data coursegen
# Also:   docker run --read-only --tmpfs /tmp -p 3000:3000 -v coursegen-data:/data coursegen

FROM node:22-bookworm-slim AS base
ENV NODE_ENV=production
WORKDIR /app

# Native modules (better-sqlite3) compile here, with the toolchain only in this stage.
FROM base AS deps
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
# patches/ first: npm ci's postinstall applies them (ADR 0025).
COPY package.json package-lock.json .npmrc ./
COPY patches ./patches
RUN npm ci --include=dev

FROM deps AS build
COPY . .
RUN npm run build -- --quiet
# The version label (below) must be the version the app reports, which the build took from
# package.json: a release built with another VERSION stops here.
ARG VERSION
RUN test -z "$VERSION" || test "$VERSION" = "$(node -p "require('./package.json').version")" \
    || { echo "VERSION=$VERSION is not package.json's version" >&2; exit 1; }

# What runs and nothing else: production packages only, better-sqlite3's compiled addon without
# its ~26 MB of sources and build leftovers, and no source maps or type declarations.
FROM deps AS runtime-deps
RUN npm prune --omit=dev \
    && cd node_modules/better-sqlite3 \
    && mv build/Release/better_sqlite3.node /tmp/ \
    && rm -rf build deps src \
    && mkdir -p build/Release && mv /tmp/better_sqlite3.node build/Release/ \
    && cd /app && find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' \
       -o -name '*.d.cts' \) -delete
# Nor the dependencies' TypeScript sources and their own tests, which nothing loads at run time.
RUN find node_modules -type d \( -name test -o -name tests -o -name __tests__ -o -name __snapshots__ \) \
       -prune -exec rm -rf {} + \
    && find node_modules -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' \
       -o -name '*.test.*' -o -name '*.spec.*' \) -delete

FROM base AS runtime
RUN apt-get update && apt-get install -y --no-install-recommends redis-server tini \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /data && chown node:node /data
# The code belongs to root and is only read by the app's user; only /data is the app's to write
# (and /tmp), so the container may run with --read-only.
COPY --from=runtime-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json ./
COPY migrations ./migrations
COPY public ./public
COPY app/assets/fonts ./app/assets/fonts

USER node
# REDIS_PRIVATE: the image's own redis-server, never another Redis it might find on
# 127.0.0.1:6379 (with host networking, the host's); REDIS_URL chooses an outside one.
ENV DATA_DIR=/data PORT=3000 REDIS_PRIVATE=true
VOLUME ["/data"]
EXPOSE 3000
# Checked every second while starting, so Docker says healthy as soon as the app answers, not
# after the first 30 s interval (the flag is why Docker 25 is needed). /healthz on PORT is the
# web server's, or on a worker-only node (PROCESSES=worker) the worker's own (ADR 0045).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --start-interval=1s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The same start as `npm start`: migrate, seed, start Redis, run and keep web + worker running.
# tini passes docker stop's SIGTERM to it; it stops everything within SHUTDOWN_TIMEOUT_MS (6 s)
# plus Redis, inside Docker's 10 s grace.
ENTRYPOINT ["tini", "--"]
CMD ["node", "build/bin/start.js"]

# What the image is (OCI labels), from the release's build arguments (docs/releasing.md).
ARG VERSION
ARG REVISION
ARG CREATED
LABEL org.opencontainers.image.title="CourseGen" \
      org.opencontainers.image.description="Self-hostable AI course generator sold as a subscription" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}"
