from dataclasses import dataclass

from jinja2 import Template


@dataclass
class Customer:
    name: str
    plan: str


tpl = Template("Dear {{ name }}, your plan is {{ plan }}.")
print(tpl.render(Customer("Ana", "pro")))
