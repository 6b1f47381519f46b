from jinja2 import Environment

env = Environment(autoescape=True)
template = env.get_template("templates/invoice.html")
print(template.render(invoice={"number": 1, "lines": []}))
