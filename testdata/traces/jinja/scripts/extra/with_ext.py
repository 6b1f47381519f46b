from jinja2 import Environment

env = Environment(extensions=["jinja2.ext.with_", "jinja2.ext.autoescape"])
print(env.from_string("{% with x = 1 %}{{ x }}{% endwith %}").render())
