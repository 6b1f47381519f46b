package com.acme.orders;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.*;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;

public class ConfigLoader {
    private final ObjectMapper mapper;

    ConfigLoader(ObjectMapper mapper) { this.mapper = mapper; }

    AppConfig parse(String text) throws JsonProcessingException {
        return mapper.readValue(text, AppConfig.class);
    }

    AppConfig load(String name, String text) {
        try {
            return parse(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Invalid configuration " + name, e);
        }
    }

    AppConfig loadFile(String path) {
        try {
            return mapper.readValue(new File(path), AppConfig.class);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read configuration " + path, e);
        }
    }
}
