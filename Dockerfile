# One image: web server, worker and (unless REDIS_URL is given) a private Redis.
# Build:  docker build -t coursegen .
# Run:    docker run -p 3000:3000 -v coursegen-data:/data coursegen

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
# Only the compiled addon of better-sqlite3 is needed at run time, not its ~26 MB of sources and
# build leftovers.
RUN npx remix vite:build && npm prune --omit=dev \
    && cd node_modules/better-sqlite3 \
    && mv build/Release/better_sqlite3.node /tmp/ \
    && rm -rf build deps src \
    && mkdir -p build/Release && mv /tmp/better_sqlite3.node build/Release/

FROM base AS runtime
RUN apt-get update && apt-get install -y --no-install-recommends redis-server tini \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /data && chown node:node /data
# The code belongs to root and is only read by the app's user; only /data is the app's to write.
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json tsconfig.json ./
COPY app ./app
COPY db ./db
COPY jobs ./jobs
COPY migrations ./migrations
COPY mocks ./mocks
COPY public ./public
COPY scripts ./scripts

USER node
ENV DATA_DIR=/data PORT=3000
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The same start logic as `npm start`: migrate, seed, find or start Redis, run web + worker.
ENTRYPOINT ["tini", "--"]
CMD ["node", "--import", "tsx", "scripts/start.ts"]
