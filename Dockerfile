# Production image of the API, the workers and the operator CLI (one build; compose picks the command).
# Runs on the current Node LTS (24); `npm ci` installs exactly the lock file's versions.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The lock file is written on linux-x64 with npm 11; `npm ci` installs exactly its versions (no resolution).
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/app/data
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/package.json ./package.json
# The operator CLI on PATH (`docker compose run --rm api reviewgrid ...`), and a data directory the `node` user owns
# (a named volume mounted there starts with this ownership).
RUN printf '#!/bin/sh\nexec node /app/dist/src/cli/index.js "$@"\n' > /usr/local/bin/reviewgrid \
 && chmod 0755 /usr/local/bin/reviewgrid \
 && mkdir -p /app/data && chown node:node /app/data
EXPOSE 3000 3001
USER node
# The heap bound of the production processes (README "Memory of the API and worker processes").
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=16", "--no-allocation-site-pretenuring", "dist/src/main.js"]
