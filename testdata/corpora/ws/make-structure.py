#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the ws corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "lib" (subpath lib/) or "root" (package root), the path inside the module, the
cited line range at the base commit, and a text its first line must hold. The checks and the
digest rule are in the shared writer, ../tools/structure_table.py.

Usage: make-structure.py            (reads repo.git next to this script, writes ws/...)
The prose of the pages is hand-written; this script only computes the structure file.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from structure_table import write_structure  # noqa: E402  (the shared writer, ../tools)

BASE = "f92c7866dea8e04feab799e15165985dc6e404f9"
SUBPATH = {"lib": "lib", "root": ""}

# article_id, path under knowledge/, then the sections in page order with their references.
WS, SRV, RCV, SND, PMD, ST, EV, BU, VAL, RM = ("websocket.js", "websocket-server.js", "receiver.js",
    "sender.js", "permessage-deflate.js", "stream.js", "event-target.js", "buffer-util.js",
    "validation.js", "README.md")
ARTICLES = [
    ("overview", "architecture/overview.md", [
        ("package-contents", [("root", "package.json", 13, 36, '"homepage"'),
                              ("root", "index.js", 1, 13, "'use strict'")]),
        ("esm-wrapper", [("root", "wrapper.mjs", 1, 8, "import createWebSocketStream"),
                         ("root", "package.json", 18, 27, '"main"')]),
        ("browser-stub", [("root", "browser.js", 1, 8, "'use strict'"),
                          ("root", RM, 13, 19, "**Note**")]),
        ("protocol-versions", [("root", RM, 46, 50, "## Protocol support"),
                               ("lib", WS, 33, 37, "const closeTimeout"),
                               ("lib", WS, 659, 664, "if (!protocolVersions")]),
        ("module-map", [("lib", WS, 5, 31, "const EventEmitter"),
                        ("lib", SRV, 5, 22, "const EventEmitter")]),
    ]),
    ("opening-handshake", "architecture/opening-handshake.md", [
        ("request-validation", [("lib", SRV, 230, 263, "handleUpgrade(req, socket, head, cb)")]),
        ("accept-key", [("lib", SRV, 371, 380, "const digest"),
                        ("lib", "constants.js", 1, 12, "'use strict'"),
                        ("lib", SRV, 18, 22, "const keyRegex")]),
        ("subprotocol-selection", [("lib", SRV, 265, 276, "const secWebSocketProtocol"),
                                   ("lib", "subprotocol.js", 12, 60, "function parse(header)"),
                                   ("lib", SRV, 384, 396, "if (protocols.size)")]),
        ("extension-negotiation", [("lib", SRV, 278, 304, "const secWebSocketExtensions"),
                                   ("lib", SRV, 398, 405, "if (extensions[PerMessageDeflate")]),
        ("headers-event", [("lib", SRV, 407, 432, "//")]),
        ("upgrade-guards", [("lib", SRV, 356, 369, "completeUpgrade(extensions"),
                            ("lib", SRV, 477, 513, "/**")]),
    ]),
]
ARTICLES += [
    ("framing", "architecture/framing.md", [
        ("receiver-state", [("lib", RCV, 28, 69, "class Receiver extends Writable"),
                            ("lib", RCV, 133, 168, "/**")]),
        ("frame-header", [("lib", RCV, 176, 210, "getInfo()"),
                          ("lib", RCV, 321, 325, "if (this._payloadLength === 126)")]),
        ("opcode-rules", [("lib", RCV, 212, 248, "if (this._opcode === 0x00)"),
                          ("lib", RCV, 249, 294, "} else if (this._opcode > 0x07")]),
        ("masking-rules", [("lib", RCV, 296, 320, "if (!this._fin && !this._fragmented)"),
                           ("lib", RCV, 423, 442, "getData(cb)"),
                           ("lib", BU, 114, 131, "/* istanbul ignore else")]),
        ("payload-length", [("lib", RCV, 342, 374, "/**"),
                            ("lib", RCV, 382, 399, "haveLength()")]),
        ("message-assembly", [("lib", RCV, 505, 546, "dataMessage()"),
                              ("lib", RCV, 444, 460, "if (this._compressed)")]),
        ("control-frames", [("lib", RCV, 555, 601, "controlMessage(data)"),
                            ("lib", RCV, 79, 85, "_write(chunk, encoding, cb)")]),
        ("receiver-errors", [("lib", RCV, 606, 627, "/**"),
                             ("lib", WS, 1143, 1165, "/**")]),
    ]),
]
ARTICLES += [
    ("sender", "architecture/sender.md", [
        ("frame-building", [("lib", SND, 68, 102, "static frame(data, options)"),
                            ("lib", SND, 104, 128, "let payloadLength")]),
        ("masking-keys", [("lib", SND, 29, 45, "constructor(socket, extensions, generateMask)"),
                          ("lib", SND, 128, 145, "if (!options.mask)"),
                          ("lib", BU, 35, 49, "/**")]),
        ("send-path", [("lib", SND, 303, 339, "send(data, options, cb)"),
                       ("lib", SND, 341, 373, "if (perMessageDeflate) {")]),
        ("deflate-queue", [("lib", SND, 398, 432, "dispatch(data, compress, options, cb)"),
                           ("lib", SND, 434, 457, "/**")]),
        ("corked-writes", [("lib", SND, 459, 476, "/**"),
                           ("lib", WS, 226, 238, "socket.setTimeout(0)")]),
        ("control-limits", [("lib", SND, 156, 199, "close(code, data, mask, cb)"),
                            ("lib", SND, 209, 242, "ping(data, mask, cb)")]),
    ]),
]
ARTICLES += [
    ("permessage-deflate", "architecture/permessage-deflate.md", [
        ("deflate-options", [("lib", PMD, 30, 72, "/**"),
                             ("root", RM, 87, 135, "## WebSocket compression")]),
        ("client-offer", [("lib", PMD, 81, 106, "/**"),
                          ("lib", WS, 727, 736, "if (opts.perMessageDeflate)"),
                          ("root", RM, 137, 147, "The client will only use")]),
        ("server-accept", [("lib", PMD, 152, 201, "/**")]),
        ("client-accept", [("lib", WS, 941, 983, "const secWebSocketExtensions"),
                           ("lib", PMD, 203, 235, "/**")]),
        ("param-validation", [("lib", PMD, 244, 295, "normalizeParams(configurations)"),
                              ("lib", "extension.js", 20, 60, "/**")]),
        ("zlib-concurrency", [("lib", PMD, 17, 24, "//"),
                              ("lib", "limiter.js", 1, 55, "'use strict'"),
                              ("lib", PMD, 297, 329, "/**")]),
        ("context-takeover", [("lib", PMD, 339, 394, "_decompress(data, fin, callback)"),
                              ("lib", PMD, 404, 460, "_compress(data, fin, callback)")]),
        ("inflate-limits", [("lib", PMD, 476, 514, "/**"),
                            ("lib", RCV, 462, 497, "/**")]),
        ("deflate-cleanup", [("lib", PMD, 125, 150, "/**"),
                             ("lib", WS, 240, 259, "/**")]),
    ]),
]
ARTICLES += [
    ("closing-handshake", "architecture/closing-handshake.md", [
        ("close-method", [("lib", WS, 281, 317, "close(code, data)")]),
        ("close-timeout", [("lib", WS, 318, 325, "//"),
                           ("lib", WS, 33, 37, "const closeTimeout"),
                           ("root", RM, 487, 510, "```js")]),
        ("peer-close", [("lib", WS, 1109, 1130, "/**"),
                        ("lib", RCV, 555, 593, "controlMessage(data)")]),
        ("socket-close", [("lib", WS, 1220, 1269, "/**")]),
        ("socket-end-error", [("lib", WS, 1283, 1311, "/**")]),
        ("close-codes", [("lib", VAL, 28, 44, "/**"),
                         ("lib", SND, 156, 171, "close(code, data, mask, cb)")]),
    ]),
]
ARTICLES += [
    ("server-options", "usage/server-options.md", [
        ("three-modes", [("lib", SRV, 56, 85, "constructor(options, callback)"),
                         ("lib", SRV, 129, 145, "/**")]),
        ("port-mode", [("lib", SRV, 87, 117, "if (options.port != null)"),
                       ("lib", SRV, 30, 48, "/**")]),
        ("external-server", [("root", RM, 207, 231, "### External HTTP/S server"),
                             ("lib", SRV, 103, 117, "} else if (options.server)"),
                             ("lib", SRV, 171, 185, "if (this.options.noServer")]),
        ("path-option", [("lib", SRV, 202, 218, "/**"),
                         ("root", RM, 233, 273, "### Multiple servers")]),
        ("client-tracking", [("lib", SRV, 119, 127, "if (options.perMessageDeflate === true)"),
                             ("lib", SRV, 420, 431, "if (this.clients)")]),
        ("payload-and-validation", [("lib", SRV, 40, 55, "@param {Number} [options.maxPayload"),
                                    ("lib", SRV, 410, 418, "this.emit('headers'")]),
        ("websocket-class", [("lib", SRV, 51, 74, "@param {Function} [options.verifyClient]"),
                             ("lib", SRV, 375, 383, "const headers = [")]),
    ]),
]
ARTICLES += [
    ("verify-clients", "usage/verify-clients.md", [
        ("verify-client-sync", [("lib", SRV, 306, 316, "//"),
                                ("lib", SRV, 336, 340, "if (!this.options.verifyClient(info))")]),
        ("verify-client-async", [("lib", SRV, 317, 334, "if (this.options.verifyClient.length === 2)"),
                                 ("lib", SRV, 486, 513, "function abortHandshake(")]),
        ("upgrade-authentication", [("root", RM, 275, 318, "### Client authentication")]),
        ("ws-client-error", [("lib", SRV, 515, 535, "/**"),
                             ("lib", SRV, 236, 258, "if (req.method !== 'GET')")]),
        ("handle-protocols", [("lib", SRV, 384, 396, "if (protocols.size)"),
                              ("lib", WS, 921, 939, "const serverProt")]),
        ("origin-and-ip", [("lib", SRV, 309, 315, "if (this.options.verifyClient)"),
                           ("lib", WS, 754, 760, "if (opts.origin)"),
                           ("root", RM, 413, 440, "## FAQ")]),
    ]),
]
ARTICLES += [
    ("no-server-mode", "usage/no-server-mode.md", [
        ("handle-upgrade", [("lib", SRV, 220, 235, "/**"),
                            ("lib", SRV, 412, 432, "socket.write(headers")]),
        ("multiple-servers", [("root", RM, 233, 273, "### Multiple servers"),
                              ("lib", SRV, 260, 264, "if (!this.shouldHandle(req))")]),
        ("connection-event", [("lib", SRV, 107, 117, "if (this._server)"),
                              ("root", RM, 189, 205, "### Simple server")]),
        ("upgrade-twice", [("lib", SRV, 342, 369, "/**")]),
        ("server-address", [("lib", SRV, 129, 145, "/**")]),
        ("server-close", [("lib", SRV, 147, 200, "/**"),
                          ("lib", SRV, 457, 466, "/**")]),
    ]),
]
ARTICLES += [
    ("client-connect", "usage/client-connect.md", [
        ("constructor-arguments", [("lib", WS, 45, 89, "/**"),
                                   ("lib", WS, 182, 187, "/**")]),
        ("url-rules", [("lib", WS, 666, 703, "let parsedUrl;"),
                       ("lib", WS, 705, 724, "const defaultPort")]),
        ("unix-sockets", [("lib", WS, 761, 770, "if (parsedUrl.username"),
                          ("lib", WS, 1012, 1039, "/**")]),
        ("client-options", [("lib", WS, 612, 657, "/**")]),
        ("handshake-timeout", [("lib", WS, 846, 857, "if (opts.timeout)"),
                               ("lib", WS, 1041, 1075, "/**")]),
        ("client-subprotocols", [("lib", WS, 737, 753, "if (protocols.length)"),
                                 ("lib", WS, 921, 939, "const serverProt")]),
        ("response-checks", [("lib", WS, 896, 919, "req.on('upgrade'"),
                             ("lib", WS, 985, 997, "websocket.setSocket(socket, head")]),
    ]),
]
ARTICLES += [
    ("redirects", "usage/redirects.md", [
        ("follow-redirects", [("lib", WS, 859, 894, "req.on('response'"),
                              ("lib", WS, 694, 703, "if (invalidUrlMessage)")]),
        ("redirect-headers", [("lib", WS, 774, 816, "if (opts.followRedirects)")]),
        ("basic-auth", [("lib", WS, 818, 827, "//"),
                        ("lib", WS, 754, 763, "if (opts.origin)")]),
        ("redirect-event", [("lib", WS, 828, 844, "req = websocket._req = request(opts);")]),
    ]),
]
ARTICLES += [
    ("events", "usage/events.md", [
        ("open-event", [("lib", WS, 203, 238, "setSocket(socket, head, options)"),
                        ("lib", WS, 440, 448, "send(data, options, cb)")]),
        ("message-event", [("lib", WS, 1176, 1185, "/**"),
                           ("root", RM, 320, 341, "### Server broadcast")]),
        ("close-event", [("lib", WS, 240, 259, "/**"),
                         ("lib", "event-target.js", 211, 221, "} else if (type === 'close')")]),
        ("error-event", [("lib", WS, 999, 1010, "/**"),
                         ("root", RM, 151, 167, "### Sending and receiving text data")]),
        ("ping-pong-events", [("lib", WS, 1187, 1208, "/**")]),
        ("unexpected-response", [("lib", WS, 859, 894, "req.on('response'")]),
        ("upgrade-event", [("lib", WS, 896, 906, "req.on('upgrade'")]),
    ]),
]
EV = "event-target.js"
ARTICLES += [
    ("event-target", "usage/event-target.md", [
        ("on-attributes", [("lib", WS, 576, 608, "//"),
                           ("lib", WS, 136, 166, "/**")]),
        ("add-event-listener", [("lib", EV, 189, 241, "addEventListener(type, handler"),
                                ("lib", EV, 260, 292, "removeEventListener(type, handler)")]),
        ("event-objects", [("lib", EV, 47, 98, "/**"),
                           ("lib", EV, 100, 138, "/**"),
                           ("lib", EV, 140, 168, "/**")]),
        ("binary-type-and-compat", [("lib", WS, 91, 111, "/**"),
                                    ("lib", WS, 564, 574, "[")]),
    ]),
]
ARTICLES += [
    ("sending", "usage/sending.md", [
        ("send-options", [("lib", WS, 425, 470, "/**")]),
        ("data-types", [("lib", BU, 79, 104, "/**"),
                        ("root", RM, 169, 187, "### Sending binary data"),
                        ("root", RM, 364, 389, "### Round-trip time")]),
        ("send-callback", [("lib", WS, 1077, 1107, "/**"),
                           ("lib", SND, 466, 475, "sendFrame(list, cb)")]),
        ("fragments", [("lib", SND, 320, 339, "if (this._firstFragment)"),
                       ("lib", RCV, 505, 514, "dataMessage()")]),
        ("broadcast", [("root", RM, 320, 362, "### Server broadcast")]),
        ("buffered-amount", [("lib", WS, 113, 120, "/**"),
                             ("lib", SND, 448, 457, "/**")]),
    ]),
]
ARTICLES += [
    ("receiving", "usage/receiving.md", [
        ("binary-type", [("lib", WS, 91, 111, "/**"),
                         ("lib", "constants.js", 1, 12, "'use strict'"),
                         ("lib", BU, 64, 77, "/**")]),
        ("text-messages", [("lib", RCV, 527, 546, "} else {"),
                           ("root", RM, 151, 167, "### Sending and receiving text data")]),
        ("max-payload", [("lib", RCV, 376, 399, "/**"),
                         ("lib", RCV, 469, 497, "decompress(data, cb)")]),
        ("utf8-validation", [("lib", VAL, 46, 60, "/**"),
                             ("lib", VAL, 116, 130, "if (isUtf8) {")]),
        ("pause-resume", [("lib", WS, 327, 342, "/**"),
                          ("lib", WS, 408, 423, "/**"),
                          ("lib", WS, 1132, 1141, "/**")]),
        ("optional-addons", [("root", RM, 58, 80, "### Opt-in for performance"),
                             ("lib", BU, 114, 131, "/* istanbul ignore else"),
                             ("root", "package.json", 42, 53, '"peerDependencies"')]),
        ("addon-env-vars", [("root", RM, 71, 80, "To not even try"),
                            ("lib", VAL, 116, 130, "if (isUtf8) {")]),
    ]),
]
ARTICLES += [
    ("streams", "usage/streams.md", [
        ("create-stream", [("lib", ST, 41, 65, "/**"),
                           ("root", RM, 391, 404, "### Use the Node.js streams API")]),
        ("stream-back-pressure", [("lib", ST, 139, 157, "duplex._read"),
                                  ("lib", ST, 60, 65, "ws.on('message'")]),
        ("stream-errors-close", [("lib", ST, 67, 87, "ws.once('error'"),
                                 ("lib", ST, 15, 39, "/**")]),
        ("destroy-and-final", [("lib", ST, 89, 137, "duplex._destroy")]),
    ]),
    ("connection-lifecycle", "usage/connection-lifecycle.md", [
        ("ready-state", [("lib", WS, 492, 526, "/**"),
                         ("lib", WS, 1220, 1233, "/**")]),
        ("ping-pong", [("lib", WS, 344, 374, "/**"),
                       ("lib", WS, 376, 406, "/**")]),
        ("close-with-code", [("lib", WS, 261, 300, "/**"),
                             ("lib", VAL, 28, 44, "/**")]),
        ("terminate-vs-close", [("lib", WS, 472, 489, "/**"),
                                ("root", RM, 442, 478, "### How to detect")]),
        ("connection-properties", [("lib", WS, 113, 135, "/**"),
                                   ("lib", WS, 168, 187, "/**")]),
    ]),
]
ARTICLES += [
    ("troubleshooting", "faq/troubleshooting.md", [
        ("not-open", [("lib", WS, 440, 455, "send(data, options, cb)"),
                      ("lib", WS, 1077, 1107, "/**")]),
        ("invalid-close-code", [("lib", SND, 156, 171, "close(code, data, mask, cb)"),
                                ("lib", RCV, 562, 573, "} else {")]),
        ("frame-errors", [("lib", RCV, 184, 206, "if ((buf[0] & 0x30)"),
                          ("lib", RCV, 296, 320, "if (!this._fin && !this._fragmented)"),
                          ("lib", RCV, 606, 627, "/**")]),
        ("payload-too-big", [("lib", RCV, 348, 374, "getPayloadLength64()"),
                             ("lib", PMD, 482, 498, "function inflateOnData(chunk)")]),
        ("unexpected-server-response", [("lib", WS, 886, 894, "initAsClient(websocket, addr"),
                                        ("lib", SRV, 87, 96, "if (options.port != null)")]),
        ("server-handshake-failures", [("lib", SRV, 236, 263, "if (req.method !== 'GET')"),
                                       ("lib", SRV, 298, 304, "} catch (err) {")]),
        ("close-1006", [("lib", WS, 1296, 1311, "/**"),
                        ("lib", WS, 52, 60, "constructor(address, protocols, options)")]),
    ]),
]
ARTICLES += [
    ("how-to", "faq/how-to.md", [
        ("server-heartbeat", [("root", RM, 442, 486, "### How to detect"),
                              ("lib", WS, 1187, 1198, "/**")]),
        ("client-heartbeat", [("root", RM, 480, 510, "Pong messages are automatically")]),
        ("client-ip", [("root", RM, 413, 440, "## FAQ"),
                       ("lib", SRV, 306, 316, "//")]),
        ("proxy", [("root", RM, 512, 519, "### How to connect via a proxy?"),
                   ("lib", WS, 639, 657, "function initAsClient(")]),
        ("disable-compression", [("root", RM, 87, 95, "## WebSocket compression"),
                                 ("root", RM, 137, 147, "The client will only use"),
                                 ("lib", WS, 457, 470, "const opts = {")]),
    ]),
]

if __name__ == "__main__":
    write_structure(HERE, "ws", BASE, SUBPATH, ARTICLES)
