# STAND-IN for redis:7-alpine: Debian bookworm's redis-server (7.0), where registries are
# unreachable (scripts/compose/run.sh). As the official image: data in /data, the server runs as
# the user redis, and without a configuration file protected mode is off (the network is the
# compose network).
FROM agentchassis-ci/debian:bookworm
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends redis-server >/dev/null \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown redis:redis /data
COPY redis-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
WORKDIR /data
EXPOSE 6379
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["redis-server"]
