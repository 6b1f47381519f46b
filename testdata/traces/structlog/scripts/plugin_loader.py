import logging

import structlog

logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s %(message)s")
structlog.configure(
    processors=[structlog.stdlib.add_log_level, structlog.stdlib.render_to_log_kwargs],
    logger_factory=structlog.stdlib.LoggerFactory(),
    wrapper_class=structlog.stdlib.BoundLogger,
)

log = structlog.get_logger("plugins")
for name in ["billing", "search"]:
    log.info("plugin loaded", module=name, version="1.0")
