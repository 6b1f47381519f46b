package com.acme.orders;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.*;

public class OrderImporter {
    private final ObjectMapper mapper;

    OrderImporter(ObjectMapper mapper) { this.mapper = mapper; }

    Order importOrder(String source, String body) {
        try {
            return mapper.readValue(body, Order.class);
        } catch (JsonProcessingException e) {
            throw new ImportException("Could not import order from " + source, e);
        }
    }

    Invoice importInvoice(String body) {
        try {
            return mapper.readValue(body, Invoice.class);
        } catch (JsonProcessingException e) {
            throw new ImportException("Invoice rejected", e);
        }
    }

    OrderLine parseLine(String body) throws JsonProcessingException {
        return mapper.readValue(body, OrderLine.class);
    }

    Checkout parseCheckout(String body) throws JsonProcessingException {
        return mapper.readValue(body, Checkout.class);
    }

    Item parseItem(String body) throws JsonProcessingException {
        return mapper.readValue(body, Item.class);
    }

    Order parseOrder(String body) throws JsonProcessingException {
        return mapper.readValue(body, Order.class);
    }

    Counter parseCounter(String body) throws JsonProcessingException {
        return mapper.readValue(body, Counter.class);
    }

    Dimensions parseDimensions(String body) throws JsonProcessingException {
        return mapper.readValue(body, Dimensions.class);
    }

    Object parseAny(String body) throws JsonProcessingException {
        return mapper.readValue(body, Object.class);
    }
}
