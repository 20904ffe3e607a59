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
COPY package.json package-lock.json .npmrc ./
RUN npm ci --include=dev

FROM deps AS build
COPY . .
RUN npx remix vite:build && npm prune --omit=dev

FROM base AS runtime
RUN apt-get update && apt-get install -y --no-install-recommends redis-server tini \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /data && chown node:node /data
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --chown=node:node package.json tsconfig.json ./
COPY --chown=node:node app ./app
COPY --chown=node:node db ./db
COPY --chown=node:node jobs ./jobs
COPY --chown=node:node migrations ./migrations
COPY --chown=node:node mocks ./mocks
COPY --chown=node:node public ./public
COPY --chown=node:node scripts ./scripts

USER node
ENV DATA_DIR=/data PORT=3000
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The same start logic as `npm start`: migrate, seed, find or start Redis, run web + worker.
ENTRYPOINT ["tini", "--"]
CMD ["node", "--import", "tsx", "scripts/start.ts"]
