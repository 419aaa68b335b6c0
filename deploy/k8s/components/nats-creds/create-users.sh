#!/bin/sh
# Creates the four service users with nsc in an account of your operator, each with the same
# permissions as deploy/nats/auth.conf (the subjects it uses, as libs/contracts declares them;
# libs/contracts/src/bus-grants.spec.ts checks this file too), and writes their credentials files
# into the current folder for the Secret this component mounts:
#   deploy/k8s/components/nats-creds/create-users.sh <account>
#   kubectl -n <namespace> create secret generic agentchassis-nats-creds \
#     --from-file=gateway.creds --from-file=agent-executor.creds \
#     --from-file=function-runner.creds --from-file=scheduler.creds
# No response permission is set: each service answers the inboxes of the services that ask it
# (_INBOX.<service>.>) by name, so heartbeats and late replies pass.
set -eu
account=${1:?usage: create-users.sh <account>}

user() {
  name=$1
  shift
  nsc add user --account "$account" --name "$name" "$@"
  nsc generate creds --account "$account" --name "$name" --output-file "$name.creds"
}

user gateway \
  --allow-pub 'agent.run,agent.runs.approve,agent.runs.get,agent.runs.list,agent.runs.cancel' \
  --allow-pub 'agent.runs.reject,agent.messages.route,agent.sessions.get,agent.sessions.list' \
  --allow-pub 'agent.sessions.delete,agent.memory.search,agent.memory.forget' \
  --allow-pub 'agent.profiles.list,agent.profiles.get,agent.profiles.create,fn.invoke' \
  --allow-pub 'agent.profiles.update,agent.profiles.delete,agent.runs.fork' \
  --allow-pub 'agent.runs.step-messages,agent.usage.stats' \
  --allow-pub 'fn.catalog,svc.ping.agent-executor,svc.ping.function-runner,svc.ping.scheduler' \
  --allow-pub 'scheduler.delays.create,scheduler.delays.list,scheduler.delays.get' \
  --allow-pub 'scheduler.delays.cancel,scheduler.crons.create,scheduler.crons.list' \
  --allow-pub 'scheduler.crons.get,scheduler.crons.delete' \
  --allow-pub '$JS.API.STREAM.INFO.RUN_EVENTS,$JS.API.STREAM.CREATE.RUN_EVENTS' \
  --allow-pub '$JS.API.STREAM.UPDATE.RUN_EVENTS,$JS.API.STREAM.MSG.GET.RUN_EVENTS' \
  --allow-pub '$JS.API.DIRECT.GET.RUN_EVENTS,$JS.API.DIRECT.GET.RUN_EVENTS.>' \
  --allow-pub '$JS.API.CONSUMER.CREATE.RUN_EVENTS.>,$JS.API.CONSUMER.INFO.RUN_EVENTS.*' \
  --allow-pub '$JS.API.CONSUMER.DELETE.RUN_EVENTS.*,$JS.FC.RUN_EVENTS.>' \
  --allow-sub '_INBOX.gateway.>,svc.ping.gateway,agent.events.*,fn.announce'

user agent-executor \
  --allow-pub 'fn.exec.*,fn.catalog,fn.calls.record,agent.interrupt.*,agent.inbox.*' \
  --allow-pub 'agent.events.*,fn.cancel,fn.announce,_INBOX.gateway.>,_INBOX.agent-executor.>' \
  --allow-pub 'agent.profiles.changed' \
  --allow-pub '_INBOX.function-runner.>,_INBOX.scheduler.>,$JS.API.STREAM.INFO.KV_fn_outcomes' \
  --allow-pub '$JS.API.STREAM.CREATE.KV_fn_outcomes,$JS.API.STREAM.UPDATE.KV_fn_outcomes' \
  --allow-pub '$JS.API.DIRECT.GET.KV_fn_outcomes.>,$JS.API.CONSUMER.CREATE.KV_fn_outcomes.>' \
  --allow-pub '$JS.API.CONSUMER.INFO.KV_fn_outcomes.*,$JS.API.CONSUMER.DELETE.KV_fn_outcomes.*' \
  --allow-pub '$JS.FC.KV_fn_outcomes.>,$KV.fn_outcomes.>' \
  --allow-sub '_INBOX.agent-executor.>,agent.run,agent.runs.approve,agent.runs.get' \
  --allow-sub 'agent.runs.list,agent.runs.cancel,agent.runs.reject,agent.interrupt.*' \
  --allow-sub 'agent.inbox.*,agent.messages.route,agent.sessions.get,agent.sessions.list' \
  --allow-sub 'agent.sessions.delete,agent.memory.search,agent.memory.forget' \
  --allow-sub 'agent.profiles.list,agent.profiles.get,agent.profiles.create,fn.invoke' \
  --allow-sub 'agent.profiles.update,agent.profiles.delete,agent.runs.fork' \
  --allow-sub 'agent.runs.step-messages,agent.usage.stats,agent.profiles.changed' \
  --allow-sub 'fn.calls.record,svc.ping.agent-executor,fn.exec.*,fn.catalog,fn.announce' \
  --allow-sub 'fn.cancel'

user function-runner \
  --allow-pub 'fn.calls.record,fn.announce,_INBOX.gateway.>,_INBOX.agent-executor.>' \
  --allow-pub '_INBOX.scheduler.>,$JS.API.STREAM.INFO.KV_fn_outcomes' \
  --allow-pub '$JS.API.STREAM.CREATE.KV_fn_outcomes,$JS.API.STREAM.UPDATE.KV_fn_outcomes' \
  --allow-pub '$JS.API.DIRECT.GET.KV_fn_outcomes.>,$JS.API.CONSUMER.CREATE.KV_fn_outcomes.>' \
  --allow-pub '$JS.API.CONSUMER.INFO.KV_fn_outcomes.*,$JS.API.CONSUMER.DELETE.KV_fn_outcomes.*' \
  --allow-pub '$JS.FC.KV_fn_outcomes.>,$KV.fn_outcomes.>' \
  --allow-sub '_INBOX.function-runner.>,fn.exec.*,fn.catalog,svc.ping.function-runner,fn.cancel'

user scheduler \
  --allow-pub 'fn.exec.*,fn.catalog,fn.calls.record,agent.run,agent.profiles.get,fn.cancel,fn.announce' \
  --allow-pub '_INBOX.gateway.>,_INBOX.agent-executor.>,_INBOX.scheduler.>' \
  --allow-pub '$JS.API.STREAM.INFO.KV_fn_outcomes,$JS.API.STREAM.CREATE.KV_fn_outcomes' \
  --allow-pub '$JS.API.STREAM.UPDATE.KV_fn_outcomes,$JS.API.DIRECT.GET.KV_fn_outcomes.>' \
  --allow-pub '$JS.API.CONSUMER.CREATE.KV_fn_outcomes.>,$JS.API.CONSUMER.INFO.KV_fn_outcomes.*' \
  --allow-pub '$JS.API.CONSUMER.DELETE.KV_fn_outcomes.*,$JS.FC.KV_fn_outcomes.>' \
  --allow-pub '$KV.fn_outcomes.>' \
  --allow-sub '_INBOX.scheduler.>,scheduler.delays.create,scheduler.delays.list' \
  --allow-sub 'scheduler.delays.get,scheduler.delays.cancel,scheduler.crons.create' \
  --allow-sub 'scheduler.crons.list,scheduler.crons.get,scheduler.crons.delete' \
  --allow-sub 'svc.ping.scheduler,fn.exec.delay_create,fn.exec.delay_list,fn.exec.delay_cancel' \
  --allow-sub 'fn.exec.cron_create,fn.exec.cron_list,fn.exec.cron_delete,fn.catalog,fn.announce' \
  --allow-sub 'fn.cancel'
