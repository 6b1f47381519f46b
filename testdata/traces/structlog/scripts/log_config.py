import logging
import logging.config

import structlog

logging.config.dictConfig(
    {
        "version": 1,
        "formatters": {
            "json": {
                "()": "structlog.stdlib.ProcessorFormatter",
                "processors": [
                    "structlog.stdlib.ProcessorFormatter.remove_processors_meta",
                    "structlog.processors.JSONRenderer",
                ],
            }
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json"}},
        "root": {"handlers": ["console"], "level": "INFO"},
    }
)

logging.getLogger("app").info("started")
