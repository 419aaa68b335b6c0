# STAND-IN for postgres:17-alpine: Debian bookworm's PostgreSQL (15), where registries are
# unreachable (scripts/compose/run.sh). Its entrypoint does what the official image's does with
# POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB on an empty data folder.
FROM agentchassis-ci/debian:bookworm
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends postgresql >/dev/null \
 && rm -rf /var/lib/apt/lists/* \
 && ln -s /usr/lib/postgresql/*/bin /usr/lib/postgresql/bin
ENV PATH=/usr/lib/postgresql/bin:$PATH \
    PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
EXPOSE 5432
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
