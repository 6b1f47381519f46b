import structlog

log = structlog.get_logger()
log.trace("entering parse_headers", n=3)
