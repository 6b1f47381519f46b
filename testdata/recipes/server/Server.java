package com.acme;

public class Server {
    public static final int PORT = 8080;

    public Server() {
    }

    public void start() {
        Runnable r = () -> {};
    }

    interface Listener {
        void onEvent(String e);
    }

    enum State {
        UP,
        DOWN
    }
}
