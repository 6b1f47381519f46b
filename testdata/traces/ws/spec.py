S = "/tmp/traces-work/ws/scripts"
NM = "/tmp/traces-work/ws/scripts/node_modules/"

def rw(proj, node_modules=None):
    r = []
    if node_modules:
        r.append((NM, node_modules))
    r.append((S, proj))
    return r

HEADER = "# ws traceback set: real traces from ws 8.13.0 scripts, paths rewritten; labelled after reading the pages.\n"
ITEMS = [
    dict(file="client", rw=rw("/home/felix/price-ticker"),
         pre="my feed client just dies when the upstream is down:",
         expect=["events#error-event", "client-connect#handshake-timeout"]),
    dict(file="early_send", rw=rw("/home/nora/ws-playground"),
         expect=["troubleshooting#not-open", "events#open-event"]),
    dict(file="two_servers", rw=rw("/home/raj/realtime/apps/server", "/home/raj/realtime/node_modules/"),
         expect=["server-options#port-mode", "no-server-mode#multiple-servers"]),
    dict(file="http_404", rw=rw("/home/elena/api-bridge"),
         expect=["troubleshooting#unexpected-server-response", "events#unexpected-response"]),
    dict(file="close_code", rw=rw("/home/tom/game-server"),
         expect=["troubleshooting#invalid-close-code", "closing-handshake#close-codes", "connection-lifecycle#close-with-code"]),
    dict(file="max_payload", rw=rw("/home/wen/upload-relay"),
         pre="server crashes when a client uploads a big file over the socket:",
         expect=["troubleshooting#payload-too-big", "receiving#max-payload", "server-options#payload-and-validation"]),
    dict(file="buffer_msg", rw=rw("/home/isabel/chatbot"),
         pre="after upgrading ws from 7 to 8:",
         expect=["receiving#text-messages", "events#message-event"]),
    dict(file="double_upgrade", rw=rw("/home/marco/collab/backend", "/home/marco/collab/node_modules/"),
         expect=["no-server-mode#upgrade-twice", "opening-handshake#upgrade-guards"]),
    dict(file="browser_bundle", rw=rw("/home/olga/dashboard"),
         expect=["overview#browser-stub"]),
    dict(file="server_esm", rw=rw("/home/jun/notify-svc"),
         expect=["overview#esm-wrapper"]),
    # unanswerable
    dict(file="chat_server", rw=rw("/home/ahmed/chat"),
         expect=[]),
    dict(file="worker_pool", rw=rw("/home/greta/ws-cluster"),
         pre="trying to hand websocket connections to worker threads:",
         expect=[]),
    dict(file="gateway", rw=rw("/home/deploy/gateway/current", "/home/deploy/gateway/shared/node_modules/"),
         expect=[]),
    dict(file="secure_client", rw=rw("/home/yara/live-client"),
         expect=[]),
]
