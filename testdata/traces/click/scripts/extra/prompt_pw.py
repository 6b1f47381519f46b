import click


@click.command()
@click.option("--password", prompt=True, hide_input=True, confirmation_prompt=True)
def login(password):
    click.echo("ok")


if __name__ == "__main__":
    login()
