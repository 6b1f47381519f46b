from jinja2 import Environment, StrictUndefined

env = Environment(undefined=StrictUndefined)

NGINX_TEMPLATE = """
server {
    listen {{ port }};
    server_name {{ server_name }};
    root {{ document_root }};
}
"""

config = {"port": 8080, "server_name": "example.org"}
print(env.from_string(NGINX_TEMPLATE).render(**config))
