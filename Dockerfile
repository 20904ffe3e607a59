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
