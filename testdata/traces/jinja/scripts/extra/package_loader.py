from jinja2 import Environment, PackageLoader

env = Environment(loader=PackageLoader("reportgen", "templates"))
print(env.get_template("summary.html").render())
