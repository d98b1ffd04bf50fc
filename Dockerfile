# syntax=docker/dockerfile:1
# Outreach: the compiled gateway and web app with their production dependencies, Node.js among them.
# The build stage runs scripts/release.sh, which CI also runs on a clean checkout: the image holds the
# same bundle as release/outreach-<version>-linux-x64.tar.gz.
#   docker build -t outreach .
#   docker run -p 3000:3000 -v outreach-data:/data outreach          (embedded database in /data)
# compose.yaml runs it on PostgreSQL with one API and several workers.

FROM node:24-bookworm-slim AS build
WORKDIR /src
# Dependencies first, so that a change of the sources reuses this layer.
COPY package.json package-lock.json .npmrc .node-version ./
COPY apps/gateway/package.json apps/gateway/
COPY apps/web/package.json apps/web/
COPY packages/core/package.json packages/core/
COPY packages/db/package.json packages/db/
COPY prisma prisma
COPY prisma.config.ts ./
COPY scripts scripts
RUN npm ci --no-audit --no-fund --ignore-scripts && npm rebuild node && node scripts/prisma-generate.mjs
COPY . .
RUN scripts/release.sh /release && mv /release/outreach-*-linux-*/ /app-bundle

FROM debian:bookworm-slim
# ca-certificates: TLS to mail servers, OAuth providers and webhook targets.
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/* \
  && groupadd --system --gid 10001 outreach \
  && useradd --system --uid 10001 --gid outreach --home-dir /app --shell /usr/sbin/nologin outreach \
  && mkdir /data && chown outreach:outreach /data && chmod 700 /data
COPY --from=build --chown=root:root /app-bundle /app
WORKDIR /app
ENV NODE_ENV=production \
    DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=3000 \
    PATH=/app/node_modules/.bin:$PATH
USER outreach
VOLUME /data
EXPOSE 3000
# /readyz: 200 once the database answers and its migrations are applied, 503 while stopping.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1's only process: SIGTERM from `docker stop` reaches the server, which drains and exits.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "apps/gateway/dist/main.js"]
