from jinja2.sandbox import SandboxedEnvironment

env = SandboxedEnvironment()

# template text submitted by a customer in the CMS
user_template = "Hello {{ name }} {{ name.__class__.__mro__[1].__subclasses__() }}"
print(env.from_string(user_template).render(name="Bob"))
