# syntax=docker/dockerfile:1
# Build: install everything and typecheck; then keep only production dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run typecheck && npm prune --omit=dev && rm -rf test

# Run: the app as the unprivileged `node` user, against DATABASE_URL.
FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=1337
WORKDIR /app
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 1337
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||1337)+'/_health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "--import", "tsx", "scripts/cli.ts"]
CMD ["start", "--app", "examples/blog"]
