import os

from jinja2 import Environment, FileSystemLoader

base = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates", "emails")
env = Environment(loader=FileSystemLoader(base))
print(env.get_template("../partials/footer.html").render())
