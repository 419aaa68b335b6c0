# STAND-IN for nats:2.12-alpine: Debian bookworm's nats-server (2.9) and wget (the compose
# file's healthcheck), where registries are unreachable (scripts/compose/run.sh).
FROM agentchassis-ci/debian:bookworm
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends nats-server wget >/dev/null \
 && rm -rf /var/lib/apt/lists/* \
 && ln -s "$(command -v nats-server)" /nats-server
EXPOSE 4222 6222 8222
ENTRYPOINT ["/nats-server"]
CMD ["--config", "/etc/nats/nats-server.conf"]
