FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci --no-audit --no-fund
COPY . .
ENV NODE_ENV=production PORT=3000
EXPOSE 3000
USER node
# Node itself as PID 1 (not the tsx CLI, which relays signals a second time): SIGTERM stops it gracefully.
CMD ["node", "--import", "tsx", "src/server.ts"]
